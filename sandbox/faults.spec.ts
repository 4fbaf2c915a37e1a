import { randomUUID } from 'node:crypto';
import { startDashboardsSimulator } from './dashboards-simulator';
import type { DashboardsSimulator } from './dashboards-simulator';
import { checkFaultSpec, FaultInjector, FaultSpecError } from './faults';
import type { FaultSpec } from './faults';
import { CONTROL_PREFIX } from './http-simulator';
import { startPipesSimulator } from './pipes-simulator';
import type { PipesSimulator } from './pipes-simulator';
import { basicAuth, call, UUID_V4 } from './test-http-client';

const KEY = { keyId: 'key', keySecret: 'secret' };
const TOKEN = 'token';
const SETTINGS_PATH = `/v1/organizations/${randomUUID()}/services/${randomUUID()}/pipes/${randomUUID()}/settings`;

describe('FaultInjector', () => {
  it('applies a fault to as many matching calls as it was given, then drops it', () => {
    const faults = new FaultInjector();
    faults.add({ kind: 'status', status: 503, times: 2 });
    expect(faults.take('GET', '/a').outcome).toEqual({ kind: 'status', status: 503 });
    expect(faults.take('GET', '/a').outcome?.kind).toBe('status');
    expect(faults.take('GET', '/a').outcome).toBeNull();
    expect(faults.list()).toEqual([]);
  });

  it('keeps a fault without times until it is removed', () => {
    const faults = new FaultInjector();
    const [added] = faults.add({ kind: 'latency', ms: 5 });
    for (let i = 0; i < 3; i += 1) expect(faults.take('GET', '/').latencyMs).toBe(5);
    expect(faults.remove(added.id)).toBe(true);
    expect(faults.remove(added.id)).toBe(false);
    expect(faults.take('GET', '/').latencyMs).toBe(0);
  });

  it('scopes faults by method and path prefix', () => {
    const faults = new FaultInjector();
    faults.add({ kind: 'reset', method: 'patch', pathPrefix: '/v1/organizations' });
    expect(faults.take('GET', '/v1/organizations/x').outcome).toBeNull();
    expect(faults.take('PATCH', '/api/v2/dashboards/x').outcome).toBeNull();
    expect(faults.take('PATCH', '/v1/organizations/x').outcome).toEqual({ kind: 'reset' });
  });

  it('plays queued outcomes one call at a time, oldest first, while latencies add up', () => {
    const faults = new FaultInjector();
    faults.add(
      { kind: 'hang', times: 1 },
      { kind: 'malformedBody', times: 1 },
      { kind: 'latency', ms: 10, times: 1 },
      { kind: 'latency', ms: 20 },
      { kind: 'echoSecrets', times: 1 },
    );
    expect(faults.take('GET', '/')).toEqual({ latencyMs: 30, outcome: { kind: 'hang' }, echoSecrets: true });
    expect(faults.take('GET', '/')).toEqual({
      latencyMs: 20,
      outcome: { kind: 'malformedBody' },
      echoSecrets: false,
    });
    expect(faults.take('GET', '/')).toEqual({ latencyMs: 20, outcome: null, echoSecrets: false });
  });

  it('hands out copies, so a listed fault cannot be changed from outside', () => {
    const faults = new FaultInjector();
    const [added] = faults.add({ kind: 'status', status: 500, times: 1 });
    added.remaining = 100;
    faults.list()[0].remaining = 100;
    faults.take('GET', '/');
    expect(faults.list()).toEqual([]);
  });

  it.each([
    [{ kind: 'explode' }, /kind must be one of/],
    [{ kind: 'status' }, /status must be an HTTP status/],
    [{ kind: 'status', status: 99 }, /status must be an HTTP status/],
    [{ kind: 'status', status: 500, headers: { 'retry-after': 1 } }, /headers must be an object of string/],
    [{ kind: 'latency', ms: -1 }, /ms must be a whole number/],
    [{ kind: 'reset', times: 0 }, /times must be a whole number above 0/],
    [{ kind: 'hang', pathPrefix: 'v1' }, /pathPrefix must be a path starting with \//],
    [{ kind: 'rateLimit', retryAfterSeconds: 1.5 }, /retryAfterSeconds must be a whole number/],
    [{ kind: 'largeBody' }, /bytes must be a whole number of bytes, at least 32/],
    [{ kind: 'largeBody', bytes: 12 }, /bytes must be a whole number of bytes/],
    [{ kind: 'largeBody', bytes: 100, announce: 'yes' }, /announce must be true or false/],
    ['status', /must be a JSON object/],
  ])('refuses the spec %p', (spec, message) => {
    expect(() => checkFaultSpec(spec)).toThrow(FaultSpecError);
    expect(() => checkFaultSpec(spec)).toThrow(message);
    expect(() => new FaultInjector().add(spec as FaultSpec)).toThrow(message);
  });
});

describe('faults over HTTP', () => {
  let pipes: PipesSimulator;
  let dashboards: DashboardsSimulator;

  const getSettings = (init: { signal?: AbortSignal } = {}) =>
    call(`${pipes.url}${SETTINGS_PATH}`, {
      headers: { authorization: basicAuth(KEY.keyId, KEY.keySecret) },
      ...init,
    });
  const getDashboard = () =>
    call(`${dashboards.url}/api/v2/dashboards/0123456789abcdef01234567`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
  const control = (simulatorUrl: string, method: string, path: string, body?: unknown) =>
    call(`${simulatorUrl}${CONTROL_PREFIX}${path}`, { method, body });

  beforeAll(async () => {
    pipes = await startPipesSimulator({ keys: [KEY] });
    dashboards = await startDashboardsSimulator({ tokens: [TOKEN] });
  });

  beforeEach(() => {
    pipes.reset();
    dashboards.reset();
  });

  afterAll(async () => {
    await Promise.all([pipes.close(), dashboards.close()]);
  });

  it('adds latency to the next calls only', async () => {
    pipes.faults.add({ kind: 'latency', ms: 300, times: 1 });
    let started = Date.now();
    expect((await getSettings()).status).toBe(404);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    started = Date.now();
    await getSettings();
    expect(Date.now() - started).toBeLessThan(250);
  });

  it('answers a given status with the given body and headers', async () => {
    pipes.faults.add({
      kind: 'status',
      status: 502,
      body: { upstream: 'down' },
      headers: { 'X-Trace': 'abc' },
      times: 1,
    });
    const faulted = await getSettings();
    expect(faulted.status).toBe(502);
    expect(faulted.json).toEqual({ upstream: 'down' });
    expect(faulted.headers.get('x-trace')).toBe('abc');
    expect((await getSettings()).status).toBe(404);
  });

  it('answers a given status with each simulator’s own error body when no body is given', async () => {
    pipes.faults.add({ kind: 'status', status: 503 });
    dashboards.faults.add({ kind: 'status', status: 503 });
    const pipesError = await getSettings();
    expect(pipesError.status).toBe(503);
    expect(pipesError.json).toEqual({
      status: 503,
      error: 'Service Unavailable',
      requestId: expect.stringMatching(UUID_V4),
    });
    const dashboardsError = await getDashboard();
    expect(dashboardsError.status).toBe(503);
    expect(dashboardsError.text).toBe('Service Unavailable');
  });

  it('answers a text body as text', async () => {
    dashboards.faults.add({ kind: 'status', status: 500, body: 'boom', times: 1 });
    const response = await getDashboard();
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(response.text).toBe('boom');
  });

  it('answers 429 the way each simulator’s rate limiter does', async () => {
    pipes.faults.add({ kind: 'rateLimit', retryAfterSeconds: 7, times: 1 });
    dashboards.faults.add({ kind: 'rateLimit', retryAfterSeconds: 7, times: 1 });
    const pipesLimited = await getSettings();
    expect(pipesLimited.status).toBe(429);
    expect(pipesLimited.headers.get('x-ratelimit-reset')).toBe('7');
    expect(pipesLimited.json.status).toBe(429);
    const dashboardsLimited = await getDashboard();
    expect(dashboardsLimited.status).toBe(429);
    expect(dashboardsLimited.headers.get('retry-after')).toBe('7');
    expect(dashboardsLimited.headers.get('ratelimit-limit')).toBe('100');
    expect(dashboardsLimited.headers.get('ratelimit-remaining')).toBe('0');
    expect(dashboardsLimited.headers.get('ratelimit-reset')).toBe('7');
  });

  it('tells the client to wait one second when a rate-limit fault gives no time', async () => {
    dashboards.faults.add({ kind: 'rateLimit', times: 1 });
    expect((await getDashboard()).headers.get('retry-after')).toBe('1');
  });

  it('resets the connection', async () => {
    pipes.faults.add({ kind: 'reset', times: 1 });
    await expect(getSettings()).rejects.toMatchObject({
      message: 'fetch failed',
      cause: { code: 'ECONNRESET' },
    });
    expect((await getSettings()).status).toBe(404);
  });

  it('hangs until the client gives up', async () => {
    pipes.faults.add({ kind: 'hang', times: 1 });
    await expect(getSettings({ signal: AbortSignal.timeout(200) })).rejects.toThrow(/aborted/i);
    expect((await getSettings()).status).toBe(404);
  });

  it('answers 200 with a body that is not JSON, leaving state untouched', async () => {
    pipes.faults.add({ kind: 'malformedBody', method: 'POST', times: 1 });
    const response = await call(
      `${pipes.url}/v1/organizations/${randomUUID()}/services/${randomUUID()}/pipes`,
      {
        method: 'POST',
        headers: { authorization: basicAuth(KEY.keyId, KEY.keySecret) },
        body: { name: 'p', source: { kinesis: { streamName: 's' } }, destination: { database: 'd' } },
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(() => JSON.parse(response.text) as unknown).toThrow(SyntaxError);
    expect(pipes.storedPipes()).toEqual([]);
  });

  it.each([false, true])(
    'answers a large JSON body made as it is read (Content-Length announced: %s)',
    async (announce) => {
      pipes.faults.add({ kind: 'largeBody', bytes: 300_000, announce, times: 1 });
      const response = await getSettings();
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBe(announce ? '300000' : null);
      expect(Buffer.byteLength(response.text)).toBe(300_000);
      expect(JSON.parse(response.text)).toEqual({ result: {}, data: {}, pad: 'x'.repeat(299_968) });
    },
  );

  it('leaves calls outside a fault’s scope alone', async () => {
    pipes.faults.add({ kind: 'status', status: 500, method: 'PATCH' });
    dashboards.faults.add({ kind: 'status', status: 500, pathPrefix: '/api/v2/alerts' });
    expect((await getSettings()).status).toBe(404);
    expect((await getDashboard()).status).toBe(404);
  });

  describe('control routes', () => {
    it('adds, lists, removes and clears faults', async () => {
      const added = await control(pipes.url, 'POST', '/faults', [
        { kind: 'status', status: 500, times: 1 },
        { kind: 'latency', ms: 1 },
      ]);
      expect(added.status).toBe(201);
      expect(added.json.faults).toEqual([
        { kind: 'status', status: 500, times: 1, id: expect.stringMatching(UUID_V4), remaining: 1 },
        { kind: 'latency', ms: 1, id: expect.stringMatching(UUID_V4), remaining: null },
      ]);
      const single = await control(pipes.url, 'POST', '/faults', { kind: 'hang', times: 1 });
      expect(single.json.faults).toHaveLength(1);
      expect((await control(pipes.url, 'GET', '/faults')).json.faults).toHaveLength(3);

      expect((await control(pipes.url, 'DELETE', `/faults/${single.json.faults[0].id}`)).status).toBe(204);
      expect((await control(pipes.url, 'DELETE', `/faults/${single.json.faults[0].id}`)).status).toBe(404);
      expect((await getSettings()).status).toBe(500);
      expect((await control(pipes.url, 'DELETE', '/faults')).status).toBe(204);
      expect(pipes.faults.list()).toEqual([]);
    });

    it('refuses a bad fault spec or malformed JSON with 400 and an unknown route with 404', async () => {
      const bad = await control(dashboards.url, 'POST', '/faults', { kind: 'status', status: 'soon' });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toMatch(/status must be an HTTP status/);
      const malformed = await call(`${dashboards.url}${CONTROL_PREFIX}/faults`, {
        method: 'POST',
        rawBody: '{',
      });
      expect(malformed.status).toBe(400);
      expect((await control(dashboards.url, 'GET', '/nothing')).status).toBe(404);
      expect(dashboards.faults.list()).toEqual([]);
    });

    it('resets faults, recorded requests and data', async () => {
      const dashboard = dashboards.seedDashboard({ name: 'd' });
      dashboards.faults.add({ kind: 'latency', ms: 1 });
      await getDashboard();
      expect((await control(dashboards.url, 'POST', '/reset')).status).toBe(204);
      expect(dashboards.faults.list()).toEqual([]);
      expect(dashboards.requests()).toEqual([]);
      expect(dashboards.storedDashboard(dashboard.id)).toBeUndefined();
    });
  });

  describe('recorded requests', () => {
    it('records every upstream call, faulted ones included, but not control calls', async () => {
      pipes.faults.add({ kind: 'status', status: 500, times: 1 });
      await getSettings();
      await call(`${pipes.url}/v1/anything?x=1`, {
        method: 'POST',
        body: { a: 1 },
        headers: { 'x-request-id': 'r-1' },
      });
      await call(`${pipes.url}/v1/anything`, { method: 'PUT', rawBody: 'not json' });
      await control(pipes.url, 'GET', '/faults');

      const recorded = pipes.requests();
      expect(recorded).toHaveLength(3);
      expect(recorded[0]).toEqual({
        method: 'GET',
        path: SETTINGS_PATH,
        query: '',
        headers: expect.objectContaining({ authorization: basicAuth(KEY.keyId, KEY.keySecret) }),
        body: undefined,
        receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      expect(recorded[1]).toMatchObject({
        method: 'POST',
        path: '/v1/anything',
        query: '?x=1',
        body: { a: 1 },
        headers: { 'x-request-id': 'r-1' },
      });
      expect(recorded[2].body).toBe('not json');

      const overHttp = await control(pipes.url, 'GET', '/requests');
      expect(overHttp.json.requests).toHaveLength(3);
      expect(overHttp.json.requests[1].body).toEqual({ a: 1 });
    });

    it('clears recorded requests programmatically and over HTTP', async () => {
      await getDashboard();
      dashboards.clearRequests();
      expect(dashboards.requests()).toEqual([]);
      await getDashboard();
      expect((await control(dashboards.url, 'DELETE', '/requests')).status).toBe(204);
      expect(dashboards.requests()).toEqual([]);
    });
  });
});

describe('closing a simulator', () => {
  it('ends a hung call and a call waiting out latency, so nothing is left open', async () => {
    const simulator = await startPipesSimulator({ keys: [KEY] });
    simulator.faults.add({ kind: 'hang', times: 1 }, { kind: 'latency', ms: 60_000, pathPrefix: '/slow' });
    const hung = call(`${simulator.url}${SETTINGS_PATH}`);
    const slow = call(`${simulator.url}/slow`);
    const outcomes = Promise.allSettled([hung, slow]);
    while (simulator.requests().length < 2) await new Promise((resolve) => setTimeout(resolve, 10));

    const started = Date.now();
    await simulator.close();
    const [hungOutcome, slowOutcome] = await outcomes;
    expect(hungOutcome.status).toBe('rejected');
    expect(slowOutcome.status).toBe('rejected');
    expect(Date.now() - started).toBeLessThan(2_000);
    await simulator.close();
  });

  it('keeps only the newest requests past the recording limit', async () => {
    const simulator = await startDashboardsSimulator({ tokens: [TOKEN], maxRecordedRequests: 2 });
    try {
      for (const path of ['/one', '/two', '/three']) await call(`${simulator.url}${path}`);
      expect(simulator.requests().map((request) => request.path)).toEqual(['/two', '/three']);
    } finally {
      await simulator.close();
    }
  });
});
