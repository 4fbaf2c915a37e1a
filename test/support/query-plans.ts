import { escapeLiteral } from 'pg';
import {
  connectPostgres,
  type DatabaseConnection,
  type SqlSession,
} from '../../src/database/database-connection';
import { applyMigrations } from '../../src/database/migrator';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database';

/**
 * A database of the suite's own on the run's Postgres, migrated and given `seed` (SQL) before its
 * tests and dropped after them; call inside the suite's `describe`, and the answer in a test.
 */
export function seededDatabase(seed: string): () => DatabaseConnection {
  let scratch: ScratchDatabase;
  let database: DatabaseConnection;
  beforeAll(async () => {
    scratch = await createScratchDatabase();
    database = connectPostgres(scratch.env.DATABASE_URL);
    await applyMigrations(database);
    await database.withLock(0, (session) => session.exec(seed));
  }, 120_000);
  afterAll(async () => {
    await database.close();
    await scratch.drop();
  });
  return () => database;
}

/** SQL: the tenant `tenantId` and `rows` create specs in its history, each of its own pipe (`pipe-<n>`). */
export function busyTenantHistory(tenantId: string, rows: number): string {
  return `
  INSERT INTO tenants (id, name) VALUES ('${tenantId}', 'busy');
  INSERT INTO pipe_spec_records (id, tenant_id, actor, organization_id, service_id, spec, spec_hash,
      outcome, pipe_id, request_id, created_at)
    SELECT gen_random_uuid(), '${tenantId}', 'key:test', gen_random_uuid(), gen_random_uuid(),
      jsonb_build_object('name', 'pipe-' || i), md5(i::text), 'succeeded', 'pipe-' || i, md5(i::text),
      now() - i * interval '1 second'
    FROM generate_series(1, ${rows}) AS i;`;
}

/** A node of a plan as `EXPLAIN (FORMAT JSON)` gives it. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Plans?: PlanNode[];
}

export function* nodesOf(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodesOf(child);
}

/**
 * How Postgres plans the statement `statement` makes, on the session it is given: for its values
 * (the plan of a statement sent once), or `generic`, for any (the plan a prepared statement keeps).
 */
export function planOf(
  database: DatabaseConnection,
  statement: (session: SqlSession) => Promise<{ text: string; values: unknown[] }>,
  { generic = false } = {},
): Promise<PlanNode> {
  return database.withLock(0, async (session) => {
    const { text, values } = await statement(session);
    if (!generic) return explained(session, text, values);
    await session.exec(`PREPARE planned AS ${text}`);
    try {
      await session.exec('SET plan_cache_mode = force_generic_plan');
      // EXECUTE's arguments are not parameters of their own: they go as literals.
      return await explained(session, `EXECUTE planned(${values.map(literal).join(', ')})`, []);
    } finally {
      await session.exec('DEALLOCATE planned; RESET plan_cache_mode');
    }
  });
}

async function explained(session: SqlSession, text: string, values: unknown[]): Promise<PlanNode> {
  const [row] = await session.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `EXPLAIN (FORMAT JSON) ${text}`,
    values,
  );
  return row['QUERY PLAN'][0].Plan;
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (value instanceof Date) return escapeLiteral(value.toISOString());
  return escapeLiteral(typeof value === 'string' ? value : JSON.stringify(value));
}
