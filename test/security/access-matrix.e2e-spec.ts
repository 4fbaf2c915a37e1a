/**
 * Who may call what. The role × route matrix: every route against every kind of caller, with the
 * expected answer derived from the route's access level alone. The tenant × resource matrix: a
 * second tenant's keys aimed at the first tenant's resources find nothing and reach no upstream.
 */
import { randomBytes } from 'node:crypto';
import type { Role } from '../../src/auth/roles';
import { validCreateBody } from '../fixtures/pipe-bodies';
import { bearer, createTenant, platformAuth, type TestTenant } from '../support/fixtures';
import { startOidcIssuer, type OidcIssuer } from '../../sandbox';
import { canaryOf, startUpstreamWorld, type UpstreamWorld } from '../support/upstreams';
import { expectSound, json, ProbeClient, type Probe, type ProbeResponse } from './http-probe';
import {
  documentedRoutes,
  pathOf,
  prepareContext,
  ROUTES,
  routeName,
  type Access,
  type RouteContext,
  type RouteSpec,
} from './route-catalog';

const CALLERS = [
  'admin',
  'operator',
  'viewer',
  'auditor',
  'no key',
  'revoked key',
  'unknown key',
  'malformed key',
  'platform token',
  'signed-in admin',
  'signed-in operator',
  'signed-in viewer',
  'signed-in auditor',
  'expired user token',
] as const;
type Caller = (typeof CALLERS)[number];

const SIGNED_IN = ['signed-in admin', 'signed-in operator', 'signed-in viewer', 'signed-in auditor'] as const;
const TENANT_ROLES: readonly Caller[] = ['admin', 'operator', 'viewer', 'auditor', ...SIGNED_IN];

// admin ⊇ operator ⊇ viewer; auditor stands apart; the platform token opens only platform routes
// and those about the caller.
// A signed-in user's group mappings give the same roles as keys.
const ADMITTED: Record<Access, readonly Caller[]> = {
  public: CALLERS,
  platform: ['platform token'],
  caller: ['platform token', ...TENANT_ROLES],
  admin: ['admin', 'signed-in admin'],
  operator: ['admin', 'operator', 'signed-in admin', 'signed-in operator'],
  viewer: ['admin', 'operator', 'viewer', 'signed-in admin', 'signed-in operator', 'signed-in viewer'],
  auditor: ['auditor', 'signed-in auditor'],
  'viewer or auditor': [
    'admin',
    'operator',
    'viewer',
    'auditor',
    'signed-in admin',
    'signed-in operator',
    'signed-in viewer',
    'signed-in auditor',
  ],
};

type Expected = 'allowed' | 'forbidden (403)' | 'unauthenticated (401)';

function expected(route: RouteSpec, caller: Caller): Expected {
  if (ADMITTED[route.access].includes(caller)) return 'allowed';
  // A tenant key with too low a role is forbidden; on a platform route it is just not the token.
  if (TENANT_ROLES.includes(caller) && route.access !== 'platform') return 'forbidden (403)';
  return 'unauthenticated (401)';
}

const ROLE_CASES = ROUTES.flatMap((route) =>
  CALLERS.map((caller) => [routeName(route), caller, expected(route, caller), route] as const),
);

/** A second tenant aimed at the first one's resources: each case names the role that could reach its own. */
interface CrossTenantCase {
  role: Role;
  probe: (a: RouteContext, tenantA: TestTenant) => Omit<Probe, 'headers'>;
  /**
   * `not found`: 404. `no credential`: 422, B has none for A's organization. `nothing`: an empty
   * list. `own items`: a list of B's own items only. `not B's group`: 403, the group is not assigned to B.
   */
  answer: 'not found' | 'no credential' | 'nothing' | 'own items' | "not B's group";
  /** For `own items`: A's ids, none of which the list may show. */
  idsOfA?: (a: RouteContext, tenantA: TestTenant) => string[];
}

const pipesOf = (a: RouteContext) => `/v1/organizations/${a.organizationId}/services/${a.serviceId}/pipes`;

const CROSS_TENANT_CASES: [string, CrossTenantCase][] = [
  [
    "revoke A's key",
    {
      role: 'admin',
      probe: (_a, tenantA) => ({ method: 'DELETE', path: `/v1/keys/${tenantA.keyIds.viewer}` }),
      answer: 'not found',
    },
  ],
  [
    "read A's credential",
    {
      role: 'viewer',
      probe: (a) => ({ method: 'GET', path: `/v1/credentials/${a.credentialId}` }),
      answer: 'not found',
    },
  ],
  [
    "rotate A's credential",
    {
      role: 'admin',
      probe: (a) => ({
        method: 'POST',
        path: `/v1/credentials/${a.credentialId}/rotate`,
        body: json({ keySecret: 'taken-over' }),
      }),
      answer: 'not found',
    },
  ],
  [
    "delete A's credential",
    {
      role: 'admin',
      probe: (a) => ({ method: 'DELETE', path: `/v1/credentials/${a.credentialId}` }),
      answer: 'not found',
    },
  ],
  [
    "read A's history record",
    {
      role: 'auditor',
      probe: (a) => ({ method: 'GET', path: `/v1/history/pipe-specs/${a.historyId}` }),
      answer: 'not found',
    },
  ],
  [
    "list A's dashboard versions",
    {
      role: 'viewer',
      probe: (a) => ({ method: 'GET', path: `/v1/dashboards/${a.dashboardId}/versions` }),
      answer: 'nothing',
    },
  ],
  [
    "read A's dashboard version",
    {
      role: 'viewer',
      probe: (a) => ({ method: 'GET', path: `/v1/dashboards/${a.dashboardId}/versions/${a.version}` }),
      answer: 'not found',
    },
  ],
  [
    "restore A's dashboard version",
    {
      role: 'operator',
      probe: (a) => ({
        method: 'POST',
        path: `/v1/dashboards/${a.dashboardId}/versions/${a.version}/restore`,
      }),
      answer: 'not found',
    },
  ],
  [
    "read a dashboard through A's credential",
    {
      role: 'viewer',
      probe: (a) => ({
        method: 'GET',
        path: `/v1/dashboards/${a.dashboardId}?credentialId=${a.credentialId}`,
      }),
      answer: 'not found',
    },
  ],
  [
    "create a pipe in A's organization",
    {
      role: 'operator',
      probe: (a) => ({
        method: 'POST',
        path: pipesOf(a),
        body: json(validCreateBody('kafka', { secret: a.secret })),
      }),
      answer: 'no credential',
    },
  ],
  [
    "read the settings of A's pipe",
    {
      role: 'viewer',
      probe: (a) => ({ method: 'GET', path: `${pipesOf(a)}/${a.pipeId}/settings` }),
      answer: 'no credential',
    },
  ],
  [
    "map A's group to roles in B",
    {
      role: 'admin',
      probe: (a) => ({
        method: 'POST',
        path: '/v1/group-mappings',
        body: json({ group: a.assignedGroup(), roles: ['admin'] }),
      }),
      answer: "not B's group",
    },
  ],
  [
    'list keys',
    {
      role: 'admin',
      probe: () => ({ method: 'GET', path: '/v1/keys?limit=200' }),
      answer: 'own items',
      idsOfA: (_a, tenantA) => Object.values(tenantA.keyIds),
    },
  ],
  [
    'list credentials',
    {
      role: 'viewer',
      probe: () => ({ method: 'GET', path: '/v1/credentials?limit=200' }),
      answer: 'own items',
      idsOfA: (a) => [a.credentialId, a.rotatableCredentialId, a.deletableCredentialId],
    },
  ],
  [
    'list the history',
    {
      role: 'auditor',
      probe: () => ({ method: 'GET', path: '/v1/history/pipe-specs?limit=200' }),
      answer: 'own items',
      idsOfA: (a) => [a.historyId],
    },
  ],
  [
    'list the audit log',
    {
      role: 'auditor',
      probe: () => ({ method: 'GET', path: '/v1/audit?limit=200' }),
      answer: 'own items',
      idsOfA: () => [],
    },
  ],
];

describe('access matrix (e2e)', () => {
  let world: UpstreamWorld;
  let ctx: RouteContext;
  let client: ProbeClient;
  let callers: Record<Caller, Record<string, string>>;
  let secrets: string[];

  let issuer: OidcIssuer;

  beforeAll(async () => {
    issuer = await startOidcIssuer();
    world = await startUpstreamWorld({ OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: issuer.audience });
    client = new ProbeClient(world.gateway.url);
    secrets = [canaryOf(world)];
    ctx = await prepareContext(world, canaryOf(world));
    const admin = bearer(world.tenant.keys.admin);
    const revoked = await world.gateway.http
      .post('/v1/keys')
      .set(admin)
      .send({ name: 'revoked', roles: ['admin'] })
      .expect(201);
    await world.gateway.http.delete(`/v1/keys/${revoked.body.id}`).set(admin).expect(200);
    const { keys } = world.tenant;
    const signedIn = async (role: Role, options?: Parameters<OidcIssuer['mint']>[1]) => {
      const group = `${role}s-${randomBytes(4).toString('hex')}`;
      await world.gateway.http
        .post(`/v1/admin/tenants/${world.tenant.id}/group-mappings`)
        .set(platformAuth)
        .send({ group, roles: [role] })
        .expect(201);
      return bearer(await issuer.mint({ email: `${role}@example.com`, groups: [group] }, options));
    };
    callers = {
      admin: bearer(keys.admin),
      operator: bearer(keys.operator),
      viewer: bearer(keys.viewer),
      auditor: bearer(keys.auditor),
      'no key': {},
      'revoked key': bearer(revoked.body.key),
      'unknown key': bearer(
        `pgw_${randomBytes(9).toString('base64url')}_${randomBytes(32).toString('base64url')}`,
      ),
      'malformed key': { Authorization: 'Bearer not a gateway key' },
      'platform token': platformAuth,
      'signed-in admin': await signedIn('admin'),
      'signed-in operator': await signedIn('operator'),
      'signed-in viewer': await signedIn('viewer'),
      'signed-in auditor': await signedIn('auditor'),
      'expired user token': await signedIn('admin', { expiresInSeconds: -120 }),
    };
  });
  afterAll(async () => {
    await client?.close();
    await world?.close();
    await issuer?.close();
  });

  it('lists every documented route', async () => {
    expect(ROUTES.map(routeName).sort()).toEqual((await documentedRoutes(world.gateway)).sort());
  });

  describe('role × route', () => {
    it.each(ROLE_CASES)('%s as %s: %s', async (_name, caller, outcome, route) => {
      const response = await client.send({
        method: route.method,
        path: pathOf(route, ctx),
        headers: callers[caller],
        body: route.body ? json(route.body(ctx)) : undefined,
      });
      expectSound(response, secrets, `${routeName(route)} as ${caller}`);
      if (outcome === 'allowed' && (SIGNED_IN as readonly Caller[]).includes(caller)) {
        // Past authorization; a key of the same role may already have deleted what the route names.
        expect([200, 201, 204, 404]).toContain(response.status);
      } else if (outcome === 'allowed') {
        expect(response.status).toBeGreaterThanOrEqual(200);
        expect(response.status).toBeLessThan(300);
      } else {
        expect(response.status).toBe(outcome === 'forbidden (403)' ? 403 : 401);
        if (response.status === 401) expect(response.headers['www-authenticate']).toBe('Bearer');
      }
    });
  });

  describe('tenant × resource', () => {
    let tenantB: TestTenant;
    beforeAll(async () => {
      tenantB = await createTenant(world.gateway);
    });

    it.each(CROSS_TENANT_CASES)("tenant B's key: %s", async (name, crossing) => {
      world.pipes.clearRequests();
      world.dashboards.clearRequests();
      const response = await client.send({
        ...crossing.probe(ctx, world.tenant),
        headers: bearer(tenantB.keys[crossing.role]),
      });
      expectSound(response, secrets, name);
      expect(response.text).not.toContain(world.tenant.id);
      expect(world.pipes.requests()).toHaveLength(0);
      expect(world.dashboards.requests()).toHaveLength(0);
      switch (crossing.answer) {
        case 'not found':
          expect(response.status).toBe(404);
          break;
        case 'no credential':
          expect(response.status).toBe(422);
          break;
        case 'nothing':
          expect(response.status).toBe(200);
          expect(JSON.parse(response.text).items).toEqual([]);
          break;
        case 'own items':
          expectOwnItems(response, crossing.idsOfA!(ctx, world.tenant), tenantB);
          break;
        case "not B's group":
          expect(response.status).toBe(403);
          expect(JSON.parse(response.text).type).toMatch(/\/group-not-assigned$/);
          break;
      }
    });

    it("left A's key and credential as they were", async () => {
      const credential = await world.gateway.http
        .get(`/v1/credentials/${ctx.credentialId}`)
        .set(bearer(world.tenant.keys.viewer))
        .expect(200);
      expect(credential.body.version).toBe(1);
    });
  });
});

function expectOwnItems(response: ProbeResponse, idsOfA: string[], tenantB: TestTenant): void {
  expect(response.status).toBe(200);
  const { items } = JSON.parse(response.text) as { items: Record<string, unknown>[] };
  for (const item of items) {
    expect(idsOfA).not.toContain(item.id);
    if ('tenantId' in item) expect(item.tenantId).toBe(tenantB.id);
  }
}
