import { randomUUID } from 'node:crypto';
import type { Role } from '../../src/auth/roles';
import { TEST_ADMIN_TOKEN, TestGateway } from './gateway';

export interface TestTenant {
  id: string;
  name: string;
  /** Gateway keys by role, each a key holding only that role. */
  keys: Record<Role, string>;
  keyIds: Record<Role, string>;
}

export const platformAuth = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
export const bearer = (key: string): { Authorization: string } => ({ Authorization: `Bearer ${key}` });

/** A new tenant with one key per role, made through the platform API as an operator would. */
export async function createTenant(
  gateway: Pick<TestGateway, 'http'>,
  name = `team-${randomUUID().slice(0, 8)}`,
): Promise<TestTenant> {
  const tenant = await gateway.http.post('/v1/admin/tenants').set(platformAuth).send({ name }).expect(201);
  const keys = {} as Record<Role, string>;
  const keyIds = {} as Record<Role, string>;
  for (const role of ['admin', 'operator', 'viewer', 'auditor'] as const) {
    const created = await gateway.http
      .post(`/v1/admin/tenants/${tenant.body.id}/keys`)
      .set(platformAuth)
      .send({ name: `${role}-key`, roles: [role] })
      .expect(201);
    keys[role] = created.body.key;
    keyIds[role] = created.body.id;
  }
  return { id: tenant.body.id, name, keys, keyIds };
}

/** Stores `key` as the tenant's pipes credential for `organizationId`, as its admin would. */
export async function storePipesCredential(
  gateway: Pick<TestGateway, 'http'>,
  tenant: TestTenant,
  organizationId: string,
  key: { keyId: string; keySecret: string },
): Promise<void> {
  await gateway.http
    .post('/v1/credentials')
    .set(bearer(tenant.keys.admin))
    .send({ kind: 'pipes', name: 'pipes', organizationId, ...key })
    .expect(201);
}
