import { startGateway, TestGateway } from './support/gateway';
import { ROUTES } from './security/route-catalog';

/** The routes no credential reaches, as the OpenAPI document names them (`get /metrics`). */
const PUBLIC = new Set(
  ROUTES.filter((route) => route.access === 'public').map(
    (route) => `${route.method.toLowerCase()} ${route.template}`,
  ),
);

describe('foundation (e2e)', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('is live and ready once migrations are applied', async () => {
    await gateway.http.get('/health/live').expect(200, { status: 'ok' });
    await gateway.http.get('/health/ready').expect(200, { status: 'ok' });
  });

  it('answers unknown routes with problem+json and a request id', async () => {
    const response = await gateway.http.get('/v1/nothing-here').expect(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).toEqual({
      type: 'https://pipes-gateway.dev/problems/not-found',
      title: 'Not found',
      status: 404,
      detail: 'Cannot GET /v1/nothing-here',
      requestId: response.headers['x-request-id'],
    });
  });

  it('quotes neither the query string nor a secret in the path of an unknown route, nor logs them', async () => {
    const key = `pgw_${'k'.repeat(12)}_${'s'.repeat(43)}`;
    const withQuery = await gateway.http
      .get(`/v1/nothing-here?token=CANARY-query-secret&u=https://a:CANARY-pass@h`)
      .expect(404);
    expect(withQuery.body.detail).toBe('Cannot GET /v1/nothing-here');
    const withKey = await gateway.http.delete(`/v1/keys/x/${key}`).expect(404);
    expect(withKey.body.detail).toBe('Cannot DELETE /v1/keys/x/[redacted]');
    for (const answer of [withQuery, withKey]) {
      expect(answer.text).not.toMatch(/CANARY|pgw_k/);
    }
    const accessLines = gateway.logs
      .entries()
      .filter((entry) =>
        [withQuery, withKey].some((answer) => entry.requestId === answer.headers['x-request-id']),
      );
    expect(accessLines.map((entry) => entry.req)).toEqual([
      { method: 'GET', path: '/v1/nothing-here' },
      { method: 'DELETE', path: '/v1/keys/x/[redacted]' },
    ]);
    expect(gateway.logs.text()).not.toMatch(/CANARY|pgw_k/);
  });

  it('echoes a sane caller request id and replaces an insane one', async () => {
    const sane = await gateway.http.get('/health/live').set('X-Request-Id', 'frontend-42.a:b');
    expect(sane.headers['x-request-id']).toBe('frontend-42.a:b');
    const insane = await gateway.http.get('/health/live').set('X-Request-Id', 'x'.repeat(300));
    expect(insane.headers['x-request-id']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const injected = await gateway.http.get('/health/live').set('X-Request-Id', 'a b<script>');
    expect(injected.headers['x-request-id']).not.toContain('<');
  });

  it('serves the OpenAPI document and the Swagger UI', async () => {
    const json = await gateway.http.get('/docs-json').expect(200);
    expect(json.body.openapi).toMatch(/^3\./);
    expect(Object.keys(json.body.paths)).toEqual(expect.arrayContaining(['/health/live', '/health/ready']));
    await gateway.http.get('/docs').expect(200);
  });

  it('documents X-Request-Id on every operation and X-On-Behalf-Of on every authenticated one', async () => {
    type Operation = { parameters?: { in: string; name: string }[]; security?: unknown[] };
    const { paths } = (await gateway.http.get('/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, Operation>>;
    };
    const operations = Object.entries(paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ route: `${method} ${path}`, operation })),
    );
    const headers = (operation: Operation) =>
      (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    for (const { route, operation } of operations) {
      const authenticated = !PUBLIC.has(route);
      expect({ route, headers: headers(operation) }).toEqual({
        route,
        headers: expect.arrayContaining(
          authenticated ? ['X-Request-Id', 'X-On-Behalf-Of'] : ['X-Request-Id'],
        ),
      });
      if (!authenticated) expect(headers(operation)).not.toContain('X-On-Behalf-Of');
    }
    expect(operations.filter(({ route }) => route.startsWith('post /v1/')).length).toBeGreaterThan(5);
  });

  it('writes structured access logs with request id, method, route, status and duration', async () => {
    await gateway.http.get('/v1/nothing-here?token=CANARY-query-secret').set('X-Request-Id', 'log-check-1');
    const entry = gateway.logs.entries().find((line) => line.requestId === 'log-check-1');
    expect(entry).toMatchObject({ req: { method: 'GET', path: '/v1/nothing-here' }, status: 404 });
    expect(typeof entry?.durationMs).toBe('number');
    expect(gateway.logs.text()).not.toContain('CANARY-query-secret');
  });

  it('never logs authorization headers', async () => {
    await gateway.http.get('/health/ready').set('Authorization', 'Bearer CANARY-auth-header-secret');
    await gateway.http
      .get('/nope')
      .set('Authorization', 'Bearer CANARY-auth-header-secret')
      .set('Cookie', 'sid=CANARY-cookie');
    expect(gateway.logs.text()).not.toContain('CANARY-auth-header-secret');
    expect(gateway.logs.text()).not.toContain('CANARY-cookie');
  });
});
