import { randomUUID } from 'node:crypto';
import { validCreateBody } from './fixtures/pipe-bodies';
import { bearer } from './support/fixtures';
import { startUpstreamWorld, UpstreamWorld } from './support/upstreams';

/** Each fault the simulators can produce, and what the gateway makes of it. */
describe('upstream faults, retries and timeouts (e2e)', () => {
  let world: UpstreamWorld;
  let pipeId: string;
  let dashboardId: string;
  const timeoutMs = 1_000;

  const settingsPath = () =>
    `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes/${pipeId}/settings`;
  const createPath = () => `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes`;
  const operator = () => bearer(world.tenant.keys.operator);
  const calls = (method: string) => world.pipes.requests().filter((r) => r.method === method).length;

  beforeAll(async () => {
    world = await startUpstreamWorld({ UPSTREAM_TIMEOUT_MS: String(timeoutMs) });
    const created = await world.gateway.http
      .post(createPath())
      .set(operator())
      .send(validCreateBody('kafka'))
      .expect(200);
    pipeId = created.body.result.id;
    dashboardId = world.dashboards.seedDashboard({ name: 'ops', tiles: [], tags: [] }).id;
  });
  afterAll(async () => {
    await world.close();
  });
  beforeEach(() => {
    world.pipes.faults.clear();
    world.dashboards.faults.clear();
    world.pipes.clearRequests();
    world.dashboards.clearRequests();
  });

  it.each([
    [503, 'status 503'],
    [502, 'status 502'],
  ])('retries an idempotent GET after a %s and succeeds', async (status) => {
    world.pipes.faults.add({ kind: 'status', status, times: 2 });
    await world.gateway.http.get(settingsPath()).set(operator()).expect(200);
    expect(calls('GET')).toBe(3);
  });

  it('gives up after a bounded number of attempts: 502, three calls, no storm', async () => {
    world.pipes.faults.add({ kind: 'status', status: 503 });
    const response = await world.gateway.http.get(settingsPath()).set(operator()).expect(502);
    expect(response.body.type).toMatch(/upstream-error$/);
    expect(calls('GET')).toBe(3);
  });

  it('retries after a connection reset', async () => {
    world.pipes.faults.add({ kind: 'reset', times: 1 });
    await world.gateway.http.get(settingsPath()).set(operator()).expect(200);
    expect(calls('GET')).toBe(2);
  });

  it('answers 502 when the connection keeps resetting', async () => {
    world.pipes.faults.add({ kind: 'reset' });
    const response = await world.gateway.http.get(settingsPath()).set(operator()).expect(502);
    expect(response.body.type).toMatch(/upstream-unreachable$/);
    const address = new URL(world.gateway.config.upstream.pipesApiUrl).origin;
    expect(response.body.detail).toBe(`The pipes API could not be reached at ${address}.`);
    // The cause is for operators: in the log, never in the answer.
    expect(JSON.stringify(response.body)).not.toMatch(/ECONNRESET|reset/i);
    expect(
      world.gateway.logs.entries().filter((line) => line.msg === 'upstream connection failed'),
    ).toContainEqual(
      expect.objectContaining({
        upstream: 'pipes',
        address,
        requestId: response.headers['x-request-id'],
        code: 'ECONNRESET',
      }),
    );
  });

  it('honours a short Retry-After on 429 and retries', async () => {
    world.pipes.faults.add({ kind: 'rateLimit', retryAfterSeconds: 0, times: 1 });
    await world.gateway.http.get(settingsPath()).set(operator()).expect(200);
    expect(calls('GET')).toBe(2);
  });

  it('passes a long 429 on to the caller with Retry-After instead of waiting', async () => {
    world.pipes.faults.add({ kind: 'rateLimit', retryAfterSeconds: 30 });
    const response = await world.gateway.http.get(settingsPath()).set(operator()).expect(429);
    expect(response.headers['retry-after']).toBe('30');
    expect(calls('GET')).toBe(1);
  });

  it('never retries a create, whatever the failure', async () => {
    world.pipes.faults.add({ kind: 'status', status: 503 });
    await world.gateway.http.post(createPath()).set(operator()).send(validCreateBody('kafka')).expect(502);
    world.pipes.faults.clear();
    world.pipes.faults.add({ kind: 'reset' });
    await world.gateway.http.post(createPath()).set(operator()).send(validCreateBody('kafka')).expect(502);
    expect(calls('POST')).toBe(2);
  });

  it('never holds a request past the timeout when the upstream hangs: 504', async () => {
    world.pipes.faults.add({ kind: 'hang' });
    const started = Date.now();
    const response = await world.gateway.http.get(settingsPath()).set(operator()).expect(504);
    const elapsed = Date.now() - started;
    expect(response.body.type).toMatch(/upstream-timeout$/);
    expect(elapsed).toBeLessThan(timeoutMs + 1_000);
  });

  it('answers 504 for a slow upstream and 200 for one within the deadline', async () => {
    world.pipes.faults.add({ kind: 'latency', ms: timeoutMs + 500, times: 3 });
    await world.gateway.http.get(settingsPath()).set(operator()).expect(504);
    world.pipes.faults.clear();
    world.pipes.faults.add({ kind: 'latency', ms: 100 });
    await world.gateway.http.get(settingsPath()).set(operator()).expect(200);
  });

  it('answers 502 for a malformed upstream body', async () => {
    world.pipes.faults.add({ kind: 'malformedBody' });
    const response = await world.gateway.http.get(settingsPath()).set(operator()).expect(502);
    expect(response.body.type).toMatch(/upstream-invalid-answer$/);
  });

  it('maps upstream 500 to 502 with the (redacted) upstream body', async () => {
    world.pipes.faults.add({
      kind: 'status',
      status: 500,
      body: { status: 500, error: 'boom', requestId: randomUUID() },
    });
    const response = await world.gateway.http
      .post(createPath())
      .set(operator())
      .send(validCreateBody('kafka'))
      .expect(502);
    expect(response.body.upstream).toMatchObject({ status: 500, body: { error: 'boom' } });
  });

  it('answers 502 when nothing listens upstream', async () => {
    const down = await startUpstreamWorld({
      PIPES_API_URL: 'http://127.0.0.1:9',
      UPSTREAM_TIMEOUT_MS: '1000',
    });
    try {
      const response = await down.gateway.http
        .get(
          `/v1/organizations/${down.organizationId}/services/${down.serviceId}/pipes/${randomUUID()}/settings`,
        )
        .set(bearer(down.tenant.keys.viewer))
        .expect(502);
      expect(response.body.type).toMatch(/upstream-unreachable$/);
      // Worded as for a reset: a closed port is told apart in the operators' log only.
      expect(response.body.detail).toBe('The pipes API could not be reached at http://127.0.0.1:9.');
      expect(JSON.stringify(response.body)).not.toMatch(/ECONNREFUSED|refused/);
    } finally {
      await down.close();
    }
  });

  it('retries an idempotent dashboard PUT on 503 and counts the attempts', async () => {
    world.dashboards.faults.add({ kind: 'status', status: 503, times: 1, method: 'PUT' });
    await world.gateway.http
      .put(`/v1/dashboards/${dashboardId}`)
      .set(operator())
      .send({ name: 'ops', tiles: [], tags: ['x'] })
      .expect(200);
    expect(world.dashboards.requests().filter((r) => r.method === 'PUT')).toHaveLength(2);
  });

  it('maps a refused dashboards token to 502 upstream-credential-rejected naming the credential to rotate', async () => {
    world.dashboards.faults.add({ kind: 'status', status: 403, times: 1 });
    const response = await world.gateway.http
      .get(`/v1/dashboards/${dashboardId}`)
      .set(operator())
      .expect(502);
    expect(response.body.type).toMatch(/upstream-credential-rejected$/);
    expect(response.body.detail).toBe(
      `The dashboards API answered 403 to the stored credential "dashboards" (${world.dashboardsCredentialId}); it is marked rejected until an admin rotates it.`,
    );
    expect(response.text).not.toContain(world.dashboardsToken);
  });
});
