/**
 * Path traversal and header injection: hostile values in every path parameter and in every header
 * the gateway reads. Each is refused with a 4xx (never a 5xx) before any upstream call, and nothing
 * the gateway ever sends upstream leaves the pipes or dashboards paths.
 */
import { connect } from 'node:net';
import { bearer, platformAuth } from '../support/fixtures';
import { TEST_ADMIN_TOKEN } from '../support/gateway';
import { canaryOf, startUpstreamWorld, type UpstreamWorld } from '../support/upstreams';
import { expectSound, json, ProbeClient, type ProbeResponse } from './http-probe';
import {
  authorizedCaller,
  fillTemplate,
  paramNames,
  pathOf,
  prepareContext,
  ROUTES,
  routeName,
  type RouteContext,
} from './route-catalog';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UPSTREAM_PATHS = [
  new RegExp(`^/v1/organizations/${UUID}/services/${UUID}/pipes(/${UUID}(/settings)?)?$`, 'i'),
  /^\/api\/v2\/dashboards\/[A-Za-z0-9_-]{1,64}$/,
];
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Path parameter values as they go on the wire: encoded, double-encoded and raw traversals. */
const HOSTILE_SEGMENTS: [string, string][] = [
  ['encoded traversal', '..%2F..%2Fadmin'],
  ['dot-dot', '..'],
  ['dot', '.'],
  ['encoded dot-dot', '%2e%2e'],
  ['encoded dot-dot-slash', '%2e%2e%2f'],
  ['upper-case encoded traversal', '%2E%2E%2F%2E%2E%2Fadmin'],
  ['double-encoded traversal', '%252e%252e%252f'],
  ['backslash traversal', '..%5C..%5Cadmin'],
  ['raw slash', 'a/b'],
  ['raw traversal', '../../admin'],
  ['encoded slash', 'a%2Fb'],
  ['null byte', '%00'],
  ['null byte inside', 'a%00b'],
  ['CRLF', '%0D%0ASet-Cookie:%20x=1'],
  ['space', 'a%20b'],
  ['full-width dots and slash', encodeURIComponent('\uff0e\uff0e\uff0f')],
  ['query smuggling', 'x%3Fadmin=1'],
  ['fragment smuggling', 'x%23admin'],
  ['absolute URL', encodeURIComponent('http://evil.example.com/')],
  ['user-info host', encodeURIComponent('@evil.example.com')],
  ['unicode', encodeURIComponent('ünïcødé-😀')],
  ['very long', 'a'.repeat(5000)],
];

const PATH_CASES = ROUTES.flatMap((route) =>
  paramNames(route.template).flatMap((param) =>
    HOSTILE_SEGMENTS.map(([label, segment]) => [routeName(route), param, label, route, segment] as const),
  ),
);

/** One header, set to a hostile value, on a request that is otherwise accepted. */
interface HeaderCase {
  route: string;
  header: string;
  value: (world: UpstreamWorld) => string;
  status: number;
  /** The field a 400 names, e.g. `header:Idempotency-Key`. */
  names?: string;
  /** The answer carries a new request id, and the upstream got the same. */
  freshRequestId?: boolean;
}

const SETTINGS = 'GET /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings';
const key = (world: UpstreamWorld) => world.tenant.keys.viewer;

const authorization = (value: HeaderCase['value'], status = 401): HeaderCase => ({
  route: 'GET /v1/credentials',
  header: 'Authorization',
  value,
  status,
});
const onBehalfOf = (value: string): HeaderCase => ({
  route: 'GET /v1/credentials',
  header: 'X-On-Behalf-Of',
  value: () => value,
  status: 400,
  names: 'header:X-On-Behalf-Of',
});
const idempotencyKey = (value: string): HeaderCase => ({
  route: 'POST /v1/organizations/{organizationId}/services/{serviceId}/pipes',
  header: 'Idempotency-Key',
  value: () => value,
  status: 400,
  names: 'header:Idempotency-Key',
});
const ifMatch = (value: string, status: number): HeaderCase => ({
  route: 'PUT /v1/dashboards/{id}',
  header: 'If-Match',
  value: () => value,
  status,
  ...(status === 400 ? { names: 'header:If-Match' } : {}),
});
const contentType = (value: string): HeaderCase => ({
  route: 'POST /v1/keys',
  header: 'Content-Type',
  value: () => value,
  status: 415,
});
const requestId = (value: string): HeaderCase => ({
  route: SETTINGS,
  header: 'X-Request-Id',
  value: () => value,
  status: 200,
  freshRequestId: true,
});
const oversized = (header: string): HeaderCase => ({
  route: 'GET /v1/credentials',
  header,
  value: () => `Bearer ${'x'.repeat(20_000)}`,
  status: 431,
});

const HEADER_CASES: [string, HeaderCase][] = [
  ['Authorization: empty', authorization(() => '')],
  ['Authorization: scheme only', authorization(() => 'Bearer')],
  ['Authorization: Basic scheme', authorization((w) => `Basic ${Buffer.from(key(w)).toString('base64')}`)],
  ['Authorization: a second token', authorization((w) => `Bearer ${key(w)} ${key(w)}`)],
  ['Authorization: two keys in one header', authorization((w) => `Bearer ${key(w)},Bearer ${key(w)}`)],
  ['Authorization: traversal', authorization(() => 'Bearer ../../admin')],
  ['Authorization: encoded CRLF after the key', authorization((w) => `Bearer ${key(w)}%0D%0A`)],
  [
    'Authorization: latin-1 bytes',
    authorization(() => 'Bearer pgw_\u00f1\u00f1\u00f1\u00f1\u00f1\u00f1\u00f1\u00f1'),
  ],
  ['Authorization: 8 KB key', authorization(() => `Bearer pgw_${'x'.repeat(8000)}`)],
  ['Authorization: the platform token', authorization(() => `Bearer ${TEST_ADMIN_TOKEN}`)],
  ['X-On-Behalf-Of: empty', onBehalfOf('')],
  ['X-On-Behalf-Of: a tab', onBehalfOf('alice\tbob')],
  ['X-On-Behalf-Of: 129 characters', onBehalfOf('a'.repeat(129))],
  ['Idempotency-Key: empty', idempotencyKey('')],
  ['Idempotency-Key: a space', idempotencyKey('key with space')],
  ['Idempotency-Key: a tab', idempotencyKey('key\tkey')],
  ['Idempotency-Key: latin-1 bytes', idempotencyKey('cl\u00e9')],
  ['Idempotency-Key: 256 characters', idempotencyKey('k'.repeat(256))],
  ['If-Match: empty', ifMatch('', 400)],
  ['If-Match: 1025 characters', ifMatch(`"${'e'.repeat(1023)}"`, 400)],
  ['If-Match: a stale tag', ifMatch('"stale"', 412)],
  ['If-Match: a weak tag', ifMatch('W/"stale"', 412)],
  ['If-Match: a list of tags', ifMatch('"a", "b"', 412)],
  ['If-Match: encoded CRLF', ifMatch('"x"%0D%0ASet-Cookie: a=b', 412)],
  ['Content-Type: text/plain', contentType('text/plain')],
  ['Content-Type: a form', contentType('application/x-www-form-urlencoded')],
  ['Content-Type: multipart', contentType('multipart/form-data; boundary=x')],
  ['Content-Type: a JSON look-alike', contentType('application/jsonx')],
  ['Content-Type: JSON patch', contentType('application/json-patch+json')],
  ['Content-Type: XML', contentType('application/xml')],
  ['Content-Type: empty', contentType('')],
  ['Content-Type: 5000 characters', contentType(`application/${'x'.repeat(5000)}`)],
  ['X-Request-Id: encoded CRLF and a header', requestId('abc%0D%0ASet-Cookie:%20x=1')],
  ['X-Request-Id: a space', requestId('a b')],
  ['X-Request-Id: a path', requestId('../../etc/passwd')],
  ['X-Request-Id: markup', requestId('<script>alert(1)</script>')],
  ['X-Request-Id: a leading dash', requestId('-rm-rf')],
  ['X-Request-Id: a tab', requestId('a\tb')],
  ['X-Request-Id: latin-1 bytes', requestId('r\u00e9quest')],
  ['X-Request-Id: 129 characters', requestId('r'.repeat(129))],
  ['X-Request-Id: empty', requestId('')],
  ['oversized Authorization', oversized('Authorization')],
  ['oversized custom header', oversized('X-Padding')],
];

/** Header lines as raw bytes, which no HTTP client would send: bare CR or LF, folding, NUL. */
const RAW_HEADER_CASES: [string, string, number][] = [
  ['a bare CR inside X-Request-Id', 'X-Request-Id: a\rb', 400],
  ['a bare LF starting a new header', 'X-Request-Id: a\nX-Injected: 1', 400],
  ['a folded continuation line', 'X-Request-Id: abc\r\n Set-Cookie: folded=1', 400],
  ['a NUL inside X-Request-Id', 'X-Request-Id: a\u0000b', 400],
  ['CRLF and a second header (two headers on the wire)', 'X-Request-Id: abc\r\nSet-Cookie: evil=1', 200],
];

describe('path traversal and header injection (e2e)', () => {
  let world: UpstreamWorld;
  let ctx: RouteContext;
  let client: ProbeClient;
  let secrets: string[];
  const routeNamed = (name: string) => ROUTES.find((route) => routeName(route) === name)!;
  const upstreamCalls = () => [...world.pipes.requests(), ...world.dashboards.requests()];

  beforeAll(async () => {
    world = await startUpstreamWorld();
    client = new ProbeClient(world.gateway.url);
    secrets = [canaryOf(world)];
    ctx = await prepareContext(world, canaryOf(world));
  });
  afterAll(async () => {
    await client?.close();
    await world?.close();
  });
  beforeEach(() => {
    world.pipes.clearRequests();
    world.dashboards.clearRequests();
  });

  /** Upstream calls made by every test, checked at the end. */
  const sentUpstream: ReturnType<typeof upstreamCalls> = [];
  afterEach(() => {
    sentUpstream.push(...upstreamCalls());
  });

  describe('path parameters', () => {
    it.each(PATH_CASES)('%s, {%s}: %s', async (_name, param, _label, route, segment) => {
      const values = Object.fromEntries(
        Object.entries(route.params!(ctx)).map(([name, value]) => [
          name,
          name === param ? segment : encodeURIComponent(value),
        ]),
      );
      const response = await client.send({
        method: route.method,
        path: fillTemplate(route.template, values),
        headers: authorizedCaller(route, world.tenant),
        body: route.body ? json(route.body(ctx)) : undefined,
      });
      expectSound(response, secrets, `${route.method} ${fillTemplate(route.template, values).slice(0, 200)}`);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(upstreamCalls()).toHaveLength(0);
    });
  });

  describe('headers', () => {
    it.each(HEADER_CASES)(
      '%s',
      async (_label, { route: name, header, value, status, names, freshRequestId }) => {
        const route = routeNamed(name);
        const sent = value(world);
        const response = await client.send({
          method: route.method,
          path: pathOf(route, ctx),
          headers: {
            ...(header === 'Authorization' ? {} : authorizedCaller(route, world.tenant)),
            [header]: sent,
          },
          body: route.body ? json(route.body(ctx)) : undefined,
        });
        expect(response.status).toBe(status);
        if (status === 431) return; // Node's HTTP parser answers before the gateway sees the request.
        expectSound(response, secrets, `${header}: ${sent.slice(0, 80)}`);
        if (names) expect(problemPaths(response)).toContain(names);
        if (status >= 400) expect(upstreamWrites()).toHaveLength(0);
        if (freshRequestId) {
          const answered = response.headers['x-request-id'];
          expect(answered).toMatch(UUID_V4);
          expect(answered).not.toBe(sent);
          expect(upstreamCalls().map((call) => call.headers['x-request-id'])).toEqual([answered]);
        }
      },
    );

    it('passes a sane X-Request-Id through to the answer and the upstream', async () => {
      const response = await client.send({
        method: 'GET',
        path: pathOf(routeNamed(SETTINGS), ctx),
        headers: { ...bearer(world.tenant.keys.viewer), 'X-Request-Id': 'frontend-42.a:b' },
      });
      expect(response.status).toBe(200);
      expect(response.headers['x-request-id']).toBe('frontend-42.a:b');
      expect(upstreamCalls().map((call) => call.headers['x-request-id'])).toEqual(['frontend-42.a:b']);
    });

    it.each(RAW_HEADER_CASES)('raw bytes: %s', async (_label, line, status) => {
      const answer = await rawRequest(
        world.gateway.url,
        `GET ${pathOf(routeNamed(SETTINGS), ctx)} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${world.tenant.keys.viewer}\r\n${line}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status).toBe(status);
      expect(Object.keys(answer.headers)).not.toEqual(expect.arrayContaining(['set-cookie']));
      expect(Object.keys(answer.headers)).not.toEqual(expect.arrayContaining(['x-injected']));
      if (status === 200) expect(answer.headers['x-request-id']).toBe('abc');
      else expect(upstreamCalls()).toHaveLength(0);
    });

    it('answers a tenant key on a platform route and the platform token on a tenant route with 401', async () => {
      const onPlatform = await client.send({
        method: 'POST',
        path: '/v1/admin/tenants',
        headers: bearer(world.tenant.keys.admin),
        body: json({ name: 'not-created' }),
      });
      const onTenant = await client.send({ method: 'GET', path: '/v1/credentials', headers: platformAuth });
      expect([onPlatform.status, onTenant.status]).toEqual([401, 401]);
    });
  });

  it('never sent anything upstream outside the pipes and dashboards paths', () => {
    expect(sentUpstream.length).toBeGreaterThan(0);
    for (const call of sentUpstream) {
      expect(UPSTREAM_PATHS.some((pattern) => pattern.test(call.path))).toBe(true);
      expect(call.query).toBe('');
      expect(String(call.headers['x-request-id'])).toMatch(SANE_REQUEST_ID);
    }
  });

  function upstreamWrites() {
    return upstreamCalls().filter((call) => call.method !== 'GET');
  }
});

function problemPaths(response: ProbeResponse): string[] {
  const problem = JSON.parse(response.text) as { errors?: { path: string }[] };
  return (problem.errors ?? []).map((error) => error.path);
}

/** Sends `request` byte for byte and reads the answer's status line and headers. */
function rawRequest(
  url: string,
  request: string,
): Promise<{ status: number; headers: Record<string, string> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request, 'latin1'));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [statusLine, ...lines] = answer.split('\r\n\r\n')[0].split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers });
    });
  });
}
