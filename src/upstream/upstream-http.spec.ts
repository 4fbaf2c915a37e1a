import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_RETRY_POLICY, UpstreamHttp } from './upstream-http';

describe('UpstreamHttp', () => {
  let server: Server;
  let origin: string;
  const seen: { url: string; headers: Record<string, unknown> }[] = [];
  const closedUnanswered: string[] = [];
  const http = new UpstreamHttp('dashboards', 'http://127.0.0.1:1', 2_000);

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ url: request.url ?? '', headers: request.headers });
      response.setHeader('content-type', 'application/json');
      if (request.url === '/hang') {
        response.on('close', () => closedUnanswered.push(request.url ?? ''));
        return;
      }
      if (request.url === '/in-pieces') {
        // A byte order mark, then a two-byte character cut between two writes.
        const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"data":{"ok":"café"}}')]);
        const cut = bytes.indexOf(0xc3) + 1;
        response.write(bytes.subarray(0, cut));
        setTimeout(() => response.end(bytes.subarray(cut)), 20);
        return;
      }
      response.end('{"data":{"ok":true}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await http.close();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => (seen.length = 0));

  const call = (baseUrl: string, path: string) =>
    http.send<{ data: { ok: boolean } }>({
      method: 'GET',
      path,
      baseUrl,
      authorization: 'Bearer t0ken',
      credentialSecrets: ['t0ken'],
      requestId: 'req-1',
    });

  it.each([
    ['', '/api/v2/dashboards/a', '/api/v2/dashboards/a'],
    ['/', '/api/v2/dashboards/a', '/api/v2/dashboards/a'],
    ['/observability', '/api/v2/dashboards/a', '/observability/api/v2/dashboards/a'],
    ['/observability/', '/api/v2/dashboards/a%2Fb', '/observability/api/v2/dashboards/a%2Fb'],
  ])('keeps the base address path %j in front of %s', async (prefix, path, expected) => {
    const response = await call(`${origin}${prefix}`, path);
    expect(response).toEqual({ status: 200, body: { data: { ok: true } } });
    expect(seen.map((request) => request.url)).toEqual([expected]);
  });

  it('sends the auth header, the request id and asks for JSON', async () => {
    await call(origin, '/x');
    expect(seen[0].headers).toMatchObject({
      authorization: 'Bearer t0ken',
      'x-request-id': 'req-1',
      accept: 'application/json',
    });
  });

  it('reads an answer that arrives in pieces, as UTF-8 without its byte order mark', async () => {
    await expect(call(origin, '/in-pieces')).resolves.toEqual({
      status: 200,
      body: { data: { ok: 'café' } },
    });
  });

  it('digests an answer only when asked, over its text and the secrets it was redacted against', async () => {
    const digestOf = async (path: string, token: string) =>
      (
        await http.send({
          method: 'GET',
          path,
          baseUrl: origin,
          authorization: `Bearer ${token}`,
          credentialSecrets: [token],
          requestId: 'req-1',
          digestAnswer: true,
        })
      ).answerDigest;

    expect((await call(origin, '/x')).answerDigest).toBeUndefined();
    const digest = await digestOf('/x', 't0ken-one');
    expect(digest).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(await digestOf('/y', 't0ken-one')).toBe(digest);
    expect(await digestOf('/y', 't0ken-two')).not.toBe(digest);
    expect(await digestOf('/in-pieces', 't0ken-one')).not.toBe(digest);
  });

  it('gives up at its deadline and drops the connection of the call it gave up on', async () => {
    const quick = new UpstreamHttp('dashboards', origin, 300, { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 });
    try {
      const started = Date.now();
      await expect(
        quick.send({
          method: 'GET',
          path: '/hang',
          authorization: 'Bearer t0ken',
          credentialSecrets: [],
          requestId: 'r',
        }),
      ).rejects.toMatchObject({ problem: { status: 504, type: 'upstream-timeout' } });
      expect(Date.now() - started).toBeLessThan(1_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(closedUnanswered).toEqual(['/hang']);
    } finally {
      await quick.close();
    }
  });
});
