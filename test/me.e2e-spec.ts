/**
 * `GET /v1/me`: who the caller is, the tenants it may act in and, per tenant, the operations it may
 * call there, derived from the routes' own access rules (so it agrees with the guard and the
 * OpenAPI document).
 */
import { randomUUID } from 'node:crypto';
import type { Role } from '../src/auth/roles';
import { startOidcIssuer, type OidcIssuer } from '../sandbox';
import { bearer, createTenant, platformAuth, type TestTenant } from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';
import { ROUTES, routeName, type Access } from './security/route-catalog';

// admin ⊇ operator ⊇ viewer; auditor apart: the roles whose routes a holder of each role may call.
const CALLABLE: Record<Role, Access[]> = {
  admin: ['admin', 'operator', 'viewer', 'viewer or auditor'],
  operator: ['operator', 'viewer', 'viewer or auditor'],
  viewer: ['viewer', 'viewer or auditor'],
  auditor: ['auditor', 'viewer or auditor'],
};

describe('GET /v1/me (e2e)', () => {
  let issuer: OidcIssuer;
  let gateway: TestGateway;
  let tenantA: TestTenant;
  let tenantB: TestTenant;
  /** operationId by `METHOD template`, as the OpenAPI document names them. */
  let operationIds: Map<string, string>;
  const run = randomUUID().slice(0, 8);

  const me = (headers: Record<string, string>) => gateway.http.get('/v1/me').set(headers);
  const userToken = async (groups: string[], email = `dana-${run}@example.com`) =>
    bearer(await issuer.mint({ email, groups }));
  /** What the route catalog says a holder of `roles` may call in a tenant. */
  const expectedOperations = (roles: Role[]) =>
    ROUTES.filter((route) => roles.some((role) => CALLABLE[role].includes(route.access)))
      .map((route) => operationIds.get(routeName(route))!)
      .sort();

  beforeAll(async () => {
    issuer = await startOidcIssuer({ audience: 'pipes-gateway-me' });
    gateway = await startGateway({ OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: issuer.audience });
    tenantA = await createTenant(gateway);
    tenantB = await createTenant(gateway);
    const document = (await gateway.http.get('/docs-json').expect(200)).body;
    operationIds = new Map(
      Object.entries(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
        ([template, byMethod]) =>
          Object.entries(byMethod).map(
            ([method, operation]) => [`${method.toUpperCase()} ${template}`, operation.operationId] as const,
          ),
      ),
    );
    const map = (tenant: TestTenant, group: string, roles: Role[]) =>
      gateway.http
        .post(`/v1/admin/tenants/${tenant.id}/group-mappings`)
        .set(platformAuth)
        .send({ group, roles })
        .expect(201);
    await map(tenantA, `a-auditors-${run}`, ['auditor']);
    await map(tenantA, `a-operators-${run}`, ['operator']);
    await map(tenantB, `b-viewers-${run}`, ['viewer']);
  });
  afterAll(async () => {
    await gateway?.close();
    await issuer?.close();
  });

  it.each(['admin', 'operator', 'viewer', 'auditor'] as const)(
    'answers a %s key with its tenant, roles and exactly the operations its role opens',
    async (role) => {
      const response = await me(bearer(tenantA.keys[role])).expect(200);
      expect(response.body).toEqual({
        kind: 'key',
        actor: `key:${tenantA.keyIds[role]}`,
        tenants: [
          { id: tenantA.id, name: tenantA.name, roles: [role], operations: expectedOperations([role]) },
        ],
        operations: ['MeController_get'],
      });
    },
  );

  it("offers an auditor a dashboard's stored versions, and neither the dashboards nor restoring one", async () => {
    const [tenant] = (await me(bearer(tenantA.keys.auditor)).expect(200)).body.tenants;
    expect(tenant.operations).toEqual(
      expect.arrayContaining(['DashboardsController_versions', 'DashboardsController_version']),
    );
    for (const operation of [
      'DashboardsController_list',
      'DashboardsController_get',
      'DashboardsController_restore',
    ])
      expect(tenant.operations).not.toContain(operation);
  });

  it('lists only operations the OpenAPI document has, and every tenant operation for a key holding all roles', async () => {
    const key = await gateway.http
      .post(`/v1/admin/tenants/${tenantA.id}/keys`)
      .set(platformAuth)
      .send({ name: 'everything', roles: ['admin', 'auditor'] })
      .expect(201);
    const [tenant] = (await me(bearer(key.body.key)).expect(200)).body.tenants;
    const documented = new Set(operationIds.values());
    expect(tenant.operations.filter((id: string) => !documented.has(id))).toEqual([]);
    // Every documented operation a key can call: all but the public, platform and caller ones.
    const tenantRoutes = ROUTES.filter((route) => !['public', 'platform', 'caller'].includes(route.access));
    expect(tenant.operations).toEqual(
      tenantRoutes.map((route) => operationIds.get(routeName(route))!).sort(),
    );
  });

  it('answers a user in several tenants with each, its roles there from its groups', async () => {
    const token = await userToken([`a-auditors-${run}`, `a-operators-${run}`, `b-viewers-${run}`]);
    const response = await me(token).expect(200);
    expect(response.body.kind).toBe('user');
    expect(response.body.actor).toBe(`user:dana-${run}@example.com`);
    const byId = new Map(response.body.tenants.map((tenant: { id: string }) => [tenant.id, tenant]));
    expect(byId.size).toBe(2);
    expect(byId.get(tenantA.id)).toEqual({
      id: tenantA.id,
      name: tenantA.name,
      roles: expect.arrayContaining(['auditor', 'operator']),
      operations: expectedOperations(['auditor', 'operator']),
    });
    expect(byId.get(tenantB.id)).toEqual({
      id: tenantB.id,
      name: tenantB.name,
      roles: ['viewer'],
      operations: expectedOperations(['viewer']),
    });
    // Sorted by name, so a tenant picker shows them in a stable order.
    const names = response.body.tenants.map((tenant: { name: string }) => tenant.name);
    expect(names).toEqual([...names].sort());
  });

  it('answers a user whose groups are mapped nowhere with no tenant, rather than refusing', async () => {
    const response = await me(await userToken([`unmapped-${run}`])).expect(200);
    expect(response.body).toEqual({
      kind: 'user',
      actor: `user:dana-${run}@example.com`,
      tenants: [],
      operations: ['MeController_get'],
    });
  });

  it('answers the platform token with no tenant and the platform operations', async () => {
    const response = await me(platformAuth).expect(200);
    expect(response.body.kind).toBe('platform');
    expect(response.body.actor).toBe('platform');
    expect(response.body.tenants).toEqual([]);
    const platformRoutes = ROUTES.filter((route) => route.access === 'platform' || route.access === 'caller');
    expect(response.body.operations).toEqual(
      platformRoutes.map((route) => operationIds.get(routeName(route))!).sort(),
    );
  });

  it('answers an ETag, 304 to If-None-Match with it, and a new tag once the roles change', async () => {
    const group = `etag-${run}`;
    const token = await userToken([group]);
    const first = await me(token).expect(200);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await me({ ...token, 'If-None-Match': etag }).expect(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(etag);
    await me({ ...token, 'If-None-Match': `W/${etag}, "other"` }).expect(304);
    await me({ ...token, 'If-None-Match': '"other"' }).expect(200);

    await gateway.http
      .post(`/v1/admin/tenants/${tenantB.id}/group-mappings`)
      .set(platformAuth)
      .send({ group, roles: ['viewer'] })
      .expect(201);
    const changed = await me({ ...token, 'If-None-Match': etag }).expect(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body.tenants.map((tenant: { id: string }) => tenant.id)).toEqual([tenantB.id]);
  });

  it('refuses a missing or bad credential with 401, and a key naming another tenant with 403', async () => {
    const missing = await gateway.http.get('/v1/me').expect(401);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    await me(bearer('pgw_nothing_here')).expect(401);
    await me(bearer('not-a-token-at-all')).expect(401);
    const expired = bearer(
      await issuer.mint({ email: 'x@example.com', groups: [] }, { expiresInSeconds: -120 }),
    );
    expect((await me(expired).expect(401)).body.detail).toBe('The token has expired.');
    await me({ ...bearer(tenantA.keys.viewer), 'X-Tenant-Id': tenantB.id }).expect(403);
  });
});
