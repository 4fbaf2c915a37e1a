/**
 * The unique constraints a caller's request can lose a race for, as a violation names them:
 * Postgres by the constraint's name, the embedded database by its columns (in index order).
 * Every other unique constraint of the schema is taken only by rows with new random ids or by
 * writes that cannot collide (ON CONFLICT, a row lock); test/database/unique-constraints.e2e-spec.ts
 * lists them all and keeps this list in step with the database.
 */
export interface UniqueConstraint {
  name: string;
  columns: readonly string[];
}

export const UNIQUE = {
  tenantName: { name: 'tenants_name_key', columns: ['name'] },
  groupMapping: { name: 'group_mappings_tenant_id_group_key', columns: ['tenant_id', 'group'] },
  tenantGroup: { name: 'tenant_groups_group_key', columns: ['group'] },
  pipesCredentialOrganization: {
    name: 'credentials_tenant_id_kind_organization_id_key',
    columns: ['tenant_id', 'kind', 'organization_id'],
  },
  secretName: { name: 'credentials_tenant_id_secret_name_key', columns: ['tenant_id', 'secret_name'] },
  idempotentRequest: { name: 'idempotent_requests_pkey', columns: ['tenant_id', 'operation', 'key'] },
} as const satisfies Record<string, UniqueConstraint>;
