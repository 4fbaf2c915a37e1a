import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import axios from 'axios';
import { createUndiciAdapter } from './undici-adapter';

describe('createUndiciAdapter', () => {
  let server: Server;
  let origin: string;
  const seen: string[] = [];
  const { adapter, close } = createUndiciAdapter({ connectTimeoutMs: 1_000 });
  const http = axios.create({ adapter, responseType: 'text', validateStatus: () => true });

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request.url ?? '');
      response.setHeader('content-type', 'application/json');
      response.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await close();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => (seen.length = 0));

  it.each([
    ['', '/api/v2/dashboards/a', '/api/v2/dashboards/a'],
    ['/', '/api/v2/dashboards/a', '/api/v2/dashboards/a'],
    ['/observability', '/api/v2/dashboards/a', '/observability/api/v2/dashboards/a'],
    ['/observability/', '/api/v2/dashboards/a%2Fb', '/observability/api/v2/dashboards/a%2Fb'],
  ])('keeps the base address path %j in front of %s', async (prefix, path, expected) => {
    const response = await http.get(path, { baseURL: `${origin}${prefix}` });
    expect(response.status).toBe(200);
    expect(seen).toEqual([expected]);
  });
});
