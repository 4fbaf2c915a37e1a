/**
 * Traces across the hop. Gateways started as `npm start` starts them (src/main.ts in a process of its
 * own, so the OpenTelemetry SDK instruments before anything loads) export their spans to an OTLP
 * receiver in this test, one over http/protobuf and one over http/json. A caller's traceparent is
 * continued through the gateway to the pipes simulator, which sees the same trace; spans are named
 * by route template and carry the tenant, the caller's kind, the cache's answer, the budget's wait,
 * the write slot and the audit append, with the database and Redis calls; log lines and problem
 * answers name the trace; /metrics holds exemplars in OpenMetrics; no secret is in any span.
 */
import { randomBytes } from 'node:crypto';
import { validCreateBody } from './fixtures/pipe-bodies';
import { bearer, createTenant, platformAuth, type TestTenant } from './support/fixtures';
import { TEST_ADMIN_TOKEN } from './support/gateway';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process';
import { OtlpReceiver, SPAN_KIND, type ReceivedSpan } from './support/otlp-receiver';
import { itWithRedis, redisReachable, TEST_REDIS_URL } from './support/redis';
import { itWithPostgres } from './support/skip';
import { canaryOf, startUpstreamWorldWith, type UpstreamWorld } from './support/upstreams';

const PIPE_ROUTE = '/v1/organizations/:organizationId/services/:serviceId/pipes/:pipeId';

/** A caller's trace context: the trace it continues and its own span, the gateway's parent. */
function callerTrace(): { traceId: string; parentId: string; headers: Record<string, string> } {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return {
    traceId,
    parentId,
    headers: { traceparent: `00-${traceId}-${parentId}-01`, tracestate: 'frontend=t61rcWkgMzE' },
  };
}

/** The log lines of one request, once its access line is out (stdout is written in blocks). */
async function linesOf(gateway: GatewayProcess, requestId: string): Promise<Record<string, unknown>[]> {
  for (let waited = 0; ; waited += 100) {
    const lines = gateway.logLines().filter((line) => line.requestId === requestId);
    if (lines.some((line) => line.msg === 'request completed') || waited > 10_000) return lines;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const serverSpanOf = (spans: ReceivedSpan[]) => spans.find((span) => span.kind === SPAN_KIND.server)!;
const named = (spans: ReceivedSpan[], name: string) => spans.find((span) => span.name === name);
const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
  spans.filter((span) => span.parentSpanId === parent.spanId);
const isDatabase = (span: ReceivedSpan, system: string) =>
  span.attributes['db.system'] === system || span.attributes['db.system.name'] === system;

describe('traces across the hop (e2e)', () => {
  let receiver: OtlpReceiver;
  let world: UpstreamWorld<GatewayProcess>;
  let jsonGateway: GatewayProcess;
  let canary: string;
  const pipesPath = (suffix = '') =>
    `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes${suffix}`;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    const tracing = {
      // Spans leave in batches; a short delay keeps the test from waiting on them.
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
    };
    [world, jsonGateway] = await Promise.all([
      startUpstreamWorldWith(startGatewayProcess, {
        ...tracing,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        // The budget is counted (and traced) but never waited for here.
        PIPES_API_RATE_LIMIT: '1000/1s',
        DASHBOARDS_API_RATE_LIMIT: '1000/1s',
        PIPE_READ_CACHE_MS: '60000',
        ...(redisReachable ? { REDIS_URL: TEST_REDIS_URL } : {}),
      }),
      startGatewayProcess({
        ...tracing,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'edge-gateway',
      }),
    ]);
    canary = canaryOf(world);
  }, 300_000);
  afterAll(async () => {
    await world?.close();
    await jsonGateway?.close();
    await receiver?.close();
  });

  async function createPipe(headers: Record<string, string> = {}): Promise<string> {
    const body = validCreateBody('kafka', { secret: `${canary}-source-secret` });
    const created = await world.gateway.http
      .post(pipesPath())
      .set(bearer(world.tenant.keys.operator))
      .set(headers)
      .send(body)
      .expect(200);
    return created.body.result.id as string;
  }

  it("continues the caller's trace through the gateway to the upstream, which sees the same trace", async () => {
    const pipeId = await createPipe();
    world.pipes.clearRequests();
    const caller = callerTrace();
    await world.gateway.http
      .get(pipesPath(`/${pipeId}`))
      .set(bearer(world.tenant.keys.viewer))
      .set(caller.headers)
      .expect(200);

    const sent = world.pipes.requests().find((request) => request.path.endsWith(`/${pipeId}`))!;
    const [version, traceId, upstreamParent, flags] = String(sent.headers.traceparent).split('-');
    expect([version, traceId, flags]).toEqual(['00', caller.traceId, '01']);
    expect(sent.headers.tracestate).toBe('frontend=t61rcWkgMzE');

    // The request's span ends last, after its answer: wait for it too.
    const spans = await receiver.trace(
      caller.traceId,
      (found) => serverSpanOf(found) !== undefined && found.some((span) => span.kind === SPAN_KIND.client),
    );
    const server = serverSpanOf(spans);
    expect(server.name).toBe(`GET ${PIPE_ROUTE}`);
    expect(server.parentSpanId).toBe(caller.parentId);
    expect(server.traceState).toBe('frontend=t61rcWkgMzE');
    expect(server.attributes).toMatchObject({
      'http.route': PIPE_ROUTE,
      'http.response.status_code': 200,
      'gateway.tenant.id': world.tenant.id,
      'gateway.caller.kind': 'key',
      'gateway.pipe_read.cache': 'miss',
    });
    expect(server.resource).toMatchObject({
      'service.name': 'pipes-gateway',
      'deployment.environment.name': 'test',
    });

    const budget = named(spans, 'upstream budget')!;
    expect(budget.parentSpanId).toBe(server.spanId);
    expect(budget.attributes).toMatchObject({ 'gateway.upstream': 'pipes', 'gateway.budget.use': 'read' });
    expect(budget.attributes['gateway.budget.wait_ms']).toEqual(expect.any(Number));

    const call = named(spans, 'pipes API call')!;
    expect(call.parentSpanId).toBe(server.spanId);
    expect(call.attributes).toMatchObject({
      'gateway.upstream': 'pipes',
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'gateway.upstream.attempts': 1,
    });
    // The span the upstream was told it is a child of: the client span of that very call.
    const [client] = childrenOf(spans, call);
    expect(client).toMatchObject({ kind: SPAN_KIND.client, spanId: upstreamParent });
    expect(client.attributes['http.response.status_code']).toBe(200);
  });

  it('says when a read was answered from the cache, with no upstream call', async () => {
    const pipeId = await createPipe();
    const read = async () => {
      const caller = callerTrace();
      await world.gateway.http
        .get(pipesPath(`/${pipeId}/settings`))
        .set(bearer(world.tenant.keys.viewer))
        .set(caller.headers)
        .expect(200);
      return receiver.trace(caller.traceId, (spans) => serverSpanOf(spans) !== undefined);
    };
    const first = await read();
    expect(serverSpanOf(first).attributes['gateway.pipe_read.cache']).toBe('miss');
    const second = await read();
    expect(serverSpanOf(second).attributes['gateway.pipe_read.cache']).toBe('hit');
    expect(named(second, 'pipes API call')).toBeUndefined();
  });

  it('traces a write: its slot, its upstream call and its audit append', async () => {
    const caller = callerTrace();
    await createPipe(caller.headers);
    const spans = await receiver.trace(
      caller.traceId,
      (found) => serverSpanOf(found) !== undefined && named(found, 'audit append') !== undefined,
    );
    const server = serverSpanOf(spans);
    expect(server.name).toBe('POST /v1/organizations/:organizationId/services/:serviceId/pipes');
    expect(server.attributes).toMatchObject({ 'gateway.write_slot': 'taken', 'gateway.caller.kind': 'key' });
    expect(named(spans, 'pipes API call')!.attributes['http.request.method']).toBe('POST');
    expect(named(spans, 'audit append')!.attributes['gateway.audit.action']).toEqual(
      expect.stringContaining('pipe'),
    );
  });

  itWithPostgres('traces the database calls of a request, as children of its spans', async () => {
    const caller = callerTrace();
    await createPipe(caller.headers);
    const spans = await receiver.trace(
      caller.traceId,
      (found) => serverSpanOf(found) !== undefined && found.some((span) => isDatabase(span, 'postgresql')),
    );
    const statements = spans.filter((span) => isDatabase(span, 'postgresql'));
    const ids = new Set(spans.map((span) => span.spanId));
    expect(statements.every((span) => ids.has(span.parentSpanId))).toBe(true);
  });

  itWithRedis('traces the Redis calls of a request', async () => {
    const pipeId = await createPipe();
    const caller = callerTrace();
    await world.gateway.http
      .get(pipesPath(`/${pipeId}`))
      .set(bearer(world.tenant.keys.viewer))
      .set(caller.headers)
      .expect(200);
    const spans = await receiver.trace(caller.traceId, (found) =>
      found.some((span) => isDatabase(span, 'redis')),
    );
    expect(spans.filter((span) => isDatabase(span, 'redis')).length).toBeGreaterThan(0);
  });

  it('names the trace in every log line of a request, and in its problem answer', async () => {
    world.dashboards.faults.add({ kind: 'reset' });
    const caller = callerTrace();
    try {
      const answer = await world.gateway.http
        .get('/v1/dashboards')
        .set(bearer(world.tenant.keys.viewer))
        .set(caller.headers)
        .expect(502);
      expect(Object.keys(answer.body).slice(4, 6)).toEqual(['requestId', 'traceId']);
      expect(answer.body.traceId).toBe(caller.traceId);

      const spans = await receiver.trace(caller.traceId, (found) => serverSpanOf(found) !== undefined);
      const ids = new Set(spans.map((span) => span.spanId));
      const requestId = answer.headers['x-request-id'];
      const lines = await linesOf(world.gateway, requestId);
      // The access line, and the warning of each attempt whose connection failed.
      expect(lines.map((line) => line.msg)).toEqual(
        expect.arrayContaining(['upstream connection failed', 'request completed']),
      );
      for (const line of lines) {
        expect(line.trace_id).toBe(caller.traceId);
        expect(ids.has(line.span_id as string)).toBe(true);
      }
      const access = lines.find((line) => line.msg === 'request completed')!;
      expect(access.span_id).toBe(serverSpanOf(spans).spanId);
    } finally {
      world.dashboards.faults.clear();
    }
  });

  it('gives a refused request its trace id too', async () => {
    const caller = callerTrace();
    const answer = await world.gateway.http.get('/v1/credentials').set(caller.headers).expect(401);
    expect(answer.body).toMatchObject({ requestId: answer.headers['x-request-id'], traceId: caller.traceId });
    const server = serverSpanOf(
      await receiver.trace(caller.traceId, (spans) => serverSpanOf(spans) !== undefined),
    );
    expect(server.name).toBe('GET /v1/credentials');
    expect(server.attributes['gateway.caller.kind']).toBeUndefined();
  });

  it('names the span of a request no route matched by its method alone, never its path', async () => {
    const caller = callerTrace();
    await world.gateway.http.get('/v1/no-such-route/4f1d').set(caller.headers).expect(404);
    const server = serverSpanOf(
      await receiver.trace(caller.traceId, (spans) => serverSpanOf(spans) !== undefined),
    );
    expect(server.name).toBe('GET');
    expect(server.attributes).toMatchObject({ 'http.response.status_code': 404 });
    expect(server.attributes['http.route']).toBeUndefined();
  });

  it('keeps exemplars naming sampled traces in the latency histograms, in OpenMetrics only', async () => {
    const caller = callerTrace();
    await world.gateway.http.get('/v1/credentials').set(bearer(world.tenant.keys.admin)).set(caller.headers);
    const openMetrics = await world.gateway.http
      .get('/metrics')
      .set('accept', 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5')
      .expect(200);
    expect(openMetrics.headers['content-type']).toBe(
      'application/openmetrics-text; version=1.0.0; charset=utf-8',
    );
    expect(openMetrics.text).toMatch(
      new RegExp(
        `gateway_http_request_duration_seconds_bucket\\{[^}]*route="/v1/credentials"[^}]*\\} \\d+ # \\{trace_id="${caller.traceId}",span_id="[0-9a-f]{16}"\\}`,
      ),
    );
    expect(openMetrics.text).toMatch(
      /gateway_upstream_request_duration_seconds_bucket\{[^}]*\} \d+ # \{trace_id="/,
    );
    expect(openMetrics.text).toContain('gateway_http_requests_total{');
    expect(openMetrics.text.endsWith('# EOF\n')).toBe(true);

    const text = await world.gateway.http.get('/metrics').expect(200);
    expect(text.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(text.text).not.toContain('trace_id');
    expect(text.text).toContain('# TYPE gateway_http_requests_total counter');
  });

  it('exports over http/json as well, under the service name set', async () => {
    const tenant: TestTenant = await createTenant(jsonGateway);
    const caller = callerTrace();
    await jsonGateway.http
      .get('/v1/credentials')
      .set(bearer(tenant.keys.admin))
      .set(caller.headers)
      .expect(200);
    const server = serverSpanOf(
      await receiver.trace(caller.traceId, (spans) => serverSpanOf(spans) !== undefined),
    );
    expect(server).toMatchObject({ name: 'GET /v1/credentials', parentSpanId: caller.parentId });
    expect(server.attributes['gateway.tenant.id']).toBe(tenant.id);
    expect(server.resource['service.name']).toBe('edge-gateway');
    const contentTypes = new Set(receiver.exports.map((each) => each.contentType));
    expect(contentTypes).toEqual(new Set(['application/json', 'application/x-protobuf']));
  });

  it('makes no span for the probes and the metrics scrape', async () => {
    const probes = ['/health/live', '/health/ready', '/metrics'].map((path) => ({
      path,
      caller: callerTrace(),
    }));
    for (const { path, caller } of probes) await world.gateway.http.get(path).set(caller.headers).expect(200);
    // A traced request after them: once its span is in, theirs would be too.
    const after = callerTrace();
    await world.gateway.http
      .get('/v1/credentials')
      .set(bearer(world.tenant.keys.admin))
      .set(after.headers)
      .expect(200);
    await receiver.trace(after.traceId, (spans) => serverSpanOf(spans) !== undefined);
    for (const { path, caller } of probes) {
      expect({ path, spans: receiver.spans().filter((span) => span.traceId === caller.traceId) }).toEqual({
        path,
        spans: [],
      });
    }
  });

  it('exports the spans it still holds when it stops', async () => {
    // Its batches wait far longer than the test: only the stop sends them.
    const holding = await startGatewayProcess({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '600000',
      OTEL_SERVICE_NAME: 'holding-gateway',
    });
    const caller = callerTrace();
    try {
      await holding.http.get('/v1/admin/tenants').set(platformAuth).set(caller.headers).expect(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.spans().filter((span) => span.traceId === caller.traceId)).toEqual([]);
    } finally {
      await holding.close();
    }
    const server = serverSpanOf(receiver.spans().filter((span) => span.traceId === caller.traceId));
    expect(server).toMatchObject({ name: 'GET /v1/admin/tenants', parentSpanId: caller.parentId });
    expect(server.resource['service.name']).toBe('holding-gateway');
  }, 200_000);

  it('exports no secret: no credential, token, key or vault value, in any span or attribute', async () => {
    // Where callers put text that spans could record: the query string and the user agent.
    await world.gateway.http
      .get(pipesPath(`?token=${canary}`))
      .set(bearer(world.tenant.keys.viewer))
      .set('user-agent', `probe/1.0 (Bearer ${canary}-agent)`);
    await jsonGateway.http.get(`/v1/credentials?password=${canary}`).set(platformAuth);
    // A stop exports what is still held.
    await world.gateway.close();
    await jsonGateway.close();

    const basic = Buffer.from(`${world.pipesKey.keyId}:${world.pipesKey.keySecret}`).toString('base64');
    const secrets = [canary, basic, TEST_ADMIN_TOKEN, ...Object.values(world.tenant.keys)];
    const exported = receiver.exports.map((each) => `${each.raw}\n${JSON.stringify(each.spans)}`).join('\n');
    expect(receiver.spans().length).toBeGreaterThan(20);
    for (const secret of secrets) {
      const at = exported.indexOf(secret);
      if (at >= 0)
        throw new Error(`a secret was exported: …${exported.slice(Math.max(0, at - 300), at + 80)}…`);
    }
  });
});
