/**
 * Every route refuses input it does not know: the global ValidationPipe holds DTO bodies and
 * queries to what they declare, path parameters and upstream-shaped bodies have checks of their
 * own, and DeclaredInputGuard refuses input on a route that reads none. This suite catches a route
 * that slips past all of them: a body or query field it does not declare must come back as a 400
 * naming it, before any work is done.
 */
import { canaryOf, startUpstreamWorld, type UpstreamWorld } from '../support/upstreams';
import {
  authorizedCaller,
  documentedOperations,
  pathOf,
  prepareContext,
  ROUTES,
  routeName,
  type OpenApiOperation,
  type RouteContext,
  type RouteSpec,
} from './route-catalog';

const unknownFields = (...paths: string[]) =>
  paths.map((path) => ({ path, message: 'is not a known field' }));

/** The route answered 400 naming exactly these unknown fields (the route is named on failure). */
function expectRefused(
  route: RouteSpec,
  response: { status: number; body: { errors?: unknown } },
  ...paths: string[]
) {
  expect({ route: routeName(route), status: response.status, errors: response.body.errors }).toEqual({
    route: routeName(route),
    status: 400,
    errors: unknownFields(...paths),
  });
}

describe('input validation on every route (e2e)', () => {
  let world: UpstreamWorld;
  let ctx: RouteContext;
  let operations: Map<string, OpenApiOperation>;

  beforeAll(async () => {
    world = await startUpstreamWorld();
    ctx = await prepareContext(world, canaryOf(world));
    operations = await documentedOperations(world.gateway);
  }, 60_000);
  afterAll(() => world?.close());

  const upstreamCalls = () => world.pipes.requests().length + world.dashboards.requests().length;

  /** Sends `request`, expects the 400 naming `paths` and no upstream call; answers the response. */
  async function expectRefusedBeforeWork<Answer extends { status: number; body: { errors?: unknown } }>(
    route: RouteSpec,
    request: PromiseLike<Answer>,
    ...paths: string[]
  ): Promise<Answer> {
    const before = upstreamCalls();
    const response = await request;
    expectRefused(route, response, ...paths);
    expect(upstreamCalls()).toBe(before);
    return response;
  }
  const BODY_ROUTES = ROUTES.filter((route) => route.body !== undefined);
  // A dashboard is the service's: the gateway passes the fields it does not know through.
  // So are pipe settings: the service adds them over time, and one it has not published yet is
  // forwarded when its value is a JSON scalar.
  const PASS_THROUGH_BODIES = new Set([
    'PUT /v1/dashboards/{id}',
    'POST /v1/dashboards',
    'PUT /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings',
  ]);

  it('knows every documented route that takes a body or a query', () => {
    expect(ROUTES.map(routeName).sort()).toEqual([...operations.keys()].sort());
    const withBody = [...operations].filter(([, operation]) => operation.requestBody !== undefined);
    expect(BODY_ROUTES.map(routeName).sort()).toEqual(withBody.map(([name]) => name).sort());
    expect(queryRoutes().length).toBeGreaterThanOrEqual(6);
  });

  it.each(
    BODY_ROUTES.filter((route) => !PASS_THROUGH_BODIES.has(routeName(route))).map(
      (route) => [routeName(route), route] as const,
    ),
  )('%s refuses a body field it does not declare', async (_name, route) => {
    const response = await expectRefusedBeforeWork(
      route,
      world.gateway.http[lower(route.method)](pathOf(route, ctx))
        .set(authorizedCaller(route, world.tenant))
        .send({ ...route.body!(ctx), unexpectedField: 1 }),
      'unexpectedField',
    );
    expect(response.body.type).toMatch(/validation-failed$/);
  });

  function takesQuery(route: RouteSpec): boolean {
    return (operations.get(routeName(route))?.parameters ?? []).some((parameter) => parameter.in === 'query');
  }

  function queryRoutes() {
    return ROUTES.filter(takesQuery);
  }

  it('refuses a query parameter it does not declare, on every route that takes a query', async () => {
    for (const route of queryRoutes()) {
      const response = await world.gateway.http[lower(route.method)](pathOf(route, ctx))
        .query({ unexpectedField: '1' })
        .set(authorizedCaller(route, world.tenant))
        .send(route.body?.(ctx));
      expectRefused(route, response, 'unexpectedField');
    }
  });
  describe('routes that read no query string or no body', () => {
    const takesNoQuery = (route: RouteSpec) => route.access !== 'public' && !takesQuery(route);
    const pipeCreate = () =>
      ROUTES.find((route) => route.method === 'POST' && route.template.endsWith('/pipes'))!;

    it('refuses any query parameter, naming each, before any work is done', async () => {
      const routes = ROUTES.filter(takesNoQuery);
      expect(routes.map(routeName)).toEqual(
        expect.arrayContaining([
          'POST /v1/organizations/{organizationId}/services/{serviceId}/pipes',
          'DELETE /v1/keys/{id}',
          'POST /v1/admin/tenants',
        ]),
      );
      for (const route of routes) {
        await expectRefusedBeforeWork(
          route,
          world.gateway.http[lower(route.method)](pathOf(route, ctx))
            .query({ dryRun: 'true', credentialId: 'x' })
            .set(authorizedCaller(route, world.tenant))
            .send(route.body?.(ctx)),
          'dryRun',
          'credentialId',
        );
      }
    });

    it('refuses body fields where the route reads no body, and takes an empty object as no body', async () => {
      const routes = ROUTES.filter(
        (route) => route.access !== 'public' && route.method !== 'GET' && route.body === undefined,
      );
      expect(routes.map(routeName).sort()).toEqual([
        'DELETE /v1/admin/tenants/{tenantId}/group-mappings/{id}',
        'DELETE /v1/admin/tenants/{tenantId}/groups/{id}',
        'DELETE /v1/credentials/{id}',
        'DELETE /v1/dashboards/{id}',
        'DELETE /v1/group-mappings/{id}',
        'DELETE /v1/keys/{id}',
        'DELETE /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}',
        'POST /v1/dashboards/{id}/versions/{n}/restore',
      ]);
      for (const route of routes) {
        await expectRefusedBeforeWork(
          route,
          world.gateway.http[lower(route.method)](pathOf(route, ctx))
            .set(authorizedCaller(route, world.tenant))
            .send({ force: true, tiles: [] }),
          'force',
          'tiles',
        );
      }
      const restore = routes.find((route) => route.template.endsWith('/restore'))!;
      await world.gateway.http
        .post(pathOf(restore, ctx))
        .set(authorizedCaller(restore, world.tenant))
        .send({})
        .expect(200);
    });

    it('names an unknown field without echoing a gateway key used as its name', async () => {
      const keyAsName = world.tenant.keys.viewer;
      const create = pipeCreate();
      const revoke = ROUTES.find((route) => route.method === 'DELETE' && route.template === '/v1/keys/{id}')!;
      const answers = [
        await world.gateway.http
          .post(pathOf(create, ctx))
          .query({ [keyAsName]: '1' })
          .set(authorizedCaller(create, world.tenant))
          .send(create.body!(ctx)),
        await world.gateway.http
          .post(pathOf(create, ctx))
          .set(authorizedCaller(create, world.tenant))
          .send({ ...create.body!(ctx), [keyAsName]: 1 }),
        await world.gateway.http
          .delete(pathOf(revoke, ctx))
          .set(authorizedCaller(revoke, world.tenant))
          .send({ [keyAsName]: 1 }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(400);
        expect(answer.body.errors).toEqual(unknownFields('[redacted]'));
        expect(answer.text).not.toContain(keyAsName);
      }
    });

    it('answers 401 first to a caller without a valid key', async () => {
      const create = pipeCreate();
      const response = await world.gateway.http
        .post(pathOf(create, ctx))
        .query({ dryRun: 'true' })
        .set('Authorization', 'Bearer pgw_not-a-key')
        .send(create.body?.(ctx));
      expect(response.status).toBe(401);
    });

    it('leaves the operations routes lenient, for probes and scrapers', async () => {
      await world.gateway.http.get('/health/live').query({ probe: '1' }).expect(200);
      await world.gateway.http.get('/health/ready').query({ probe: '1' }).expect(200);
      await world.gateway.http.get('/metrics').query({ 'name[]': 'up' }).expect(200);
    });
  });
});

function lower(method: string): 'get' | 'post' | 'put' | 'patch' | 'delete' {
  return method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
}
