import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UpstreamHttp } from './upstream-http';

describe('UpstreamHttp', () => {
  let server: Server;
  let origin: string;
  const seen: { url: string; headers: Record<string, unknown> }[] = [];
  const http = new UpstreamHttp('dashboards', 'http://127.0.0.1:1', 2_000);

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ url: request.url ?? '', headers: request.headers });
      response.setHeader('content-type', 'application/json');
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
});
