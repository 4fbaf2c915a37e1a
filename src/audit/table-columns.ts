import type {
  DashboardVersion,
  DashboardWriteHead,
  IdempotentRequest,
  PipeSpecRecord,
  SecretUse,
} from '../generated/prisma/client';

/**
 * The tables whose writes commit with an audit event (TableWrite), each with its Prisma model.
 * Their columns are the model's fields in snake_case (test/table-columns.spec.ts holds the schema
 * to that), so a field renamed in prisma/schema.prisma fails the type check of every write naming it.
 */
export interface AuditedTables {
  idempotent_requests: IdempotentRequest;
  secret_uses: SecretUse;
  dashboard_write_heads: DashboardWriteHead;
  dashboard_versions: DashboardVersion;
  pipe_spec_records: PipeSpecRecord;
}

export type AuditedTable = keyof AuditedTables;

/** `tenantId` → `tenant_id`. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Rest}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Rest>}`
  : S;

/** The columns of `T`, by name. */
export type ColumnOf<T extends AuditedTable> = SnakeCase<keyof AuditedTables[T] & string>;

/** Values for some columns of `T`: SQL fragments with their parameters. */
export type ColumnValues<T extends AuditedTable, V> = { readonly [C in ColumnOf<T>]?: V };
