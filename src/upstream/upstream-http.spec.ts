import { Logger } from '@nestjs/common';
import dns from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProblemException } from '../common/problem/problem';
import type { VaultValues } from '../credentials/vault-values';
import { SecretValueMatcher } from '../redaction/secret-value-matcher';
import { DEFAULT_RETRY_POLICY, UpstreamHttp, type UpstreamRequest } from './upstream-http';

/** A tenant's vault holding `values`, at a version of it. */
function vaultOf(values: string[], vaultVersion = 'v1', tenantId = 'tenant-a'): VaultValues {
  return { identity: `${tenantId}:${vaultVersion}`, vaultVersion, matcher: new SecretValueMatcher(values) };
}
const NO_VAULT = vaultOf([]);

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
      if (request.url?.startsWith('/echo/')) {
        const quoted = decodeURIComponent(request.url.slice('/echo/'.length));
        response.end(JSON.stringify({ data: { quoted, password: 'p4ssw0rd-field' } }));
        return;
      }
      if (request.url?.startsWith('/refuse/')) {
        const quoted = decodeURIComponent(request.url.slice('/refuse/'.length));
        response.statusCode = 409;
        response.end(
          JSON.stringify({ message: `conflict with ${quoted}`, owner: quoted, [quoted]: 'taken' }),
        );
        return;
      }
      if (request.url === '/unusable') {
        response.end(JSON.stringify({ requestId: 'zq7Kp2Vx9Lm4', data: 'not an object' }));
        return;
      }
      if (request.url === '/a-list') {
        response.end('{"data":[]}');
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
      vault: NO_VAULT,
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

  const digested = (path: string, token: string, vault: VaultValues, reuseAnswer = false) =>
    http.send<{ data: Record<string, unknown> }>({
      method: 'GET',
      path,
      baseUrl: origin,
      authorization: `Bearer ${token}`,
      credentialSecrets: [token],
      vault,
      requestId: 'req-1',
      digestAnswer: true,
      reuseAnswer,
    });

  it('digests an answer only when asked, over its text and the identity of the vault it was redacted against', async () => {
    const vault = vaultOf(['t0ken-one-long']);
    const digestOf = async (path: string, token: string, against = vault) =>
      (await digested(path, token, against)).answerDigest;

    expect((await call(origin, '/x')).answerDigest).toBeUndefined();
    const digest = await digestOf('/x', 't0ken-one-long');
    expect(digest).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(await digestOf('/y', 't0ken-one-long')).toBe(digest);
    expect(await digestOf('/in-pieces', 't0ken-one-long')).not.toBe(digest);
    // Another version of the vault, or another tenant's with the same values: another digest.
    expect(await digestOf('/x', 't0ken-one-long', vaultOf(['t0ken-one-long'], 'v2'))).not.toBe(digest);
    expect(await digestOf('/x', 't0ken-one-long', vaultOf(['t0ken-one-long'], 'v1', 'b'))).not.toBe(digest);
    // A secret of the request that the vault does not hold: the body depends on it, so no digest.
    expect(await digestOf('/x', 't0ken-elsewhere')).toBeUndefined();
  });

  it('reuses an answer seen before when asked: the same redacted JSON, not parsed again, a fresh body', async () => {
    const vault = vaultOf(['s3cret-one']);
    const read = (path: string, token: string, against = vault) => digested(path, token, against, true);
    const first = await read('/echo/s3cret-one', 's3cret-one');
    expect(first.bodyJson).toBe(JSON.stringify(first.body));
    expect(first.bodyJson).not.toMatch(/s3cret-one|p4ssw0rd-field/);

    const parse = jest.spyOn(JSON, 'parse');
    try {
      const again = await read('/echo/s3cret-one', 's3cret-one');
      expect(parse).not.toHaveBeenCalled();
      expect(again.bodyJson).toBe(first.bodyJson);
      expect(again.answerDigest).toBe(first.answerDigest);
      expect(again.body).toEqual(first.body);
      expect(again.body).not.toBe(first.body);
    } finally {
      parse.mockRestore();
    }

    // The same text against another version of the vault is another answer, redacted against it.
    const other = await read('/echo/s3cret-one', 's3cret-two', vaultOf(['s3cret-two'], 'v2'));
    expect(other.answerDigest).not.toBe(first.answerDigest);
    expect(other.bodyJson).toContain('s3cret-one');
    expect(other.bodyJson).not.toContain('p4ssw0rd-field');
    // Without a digest the answer is still sent on as JSON, and kept nowhere.
    const unkept = await read('/echo/s3cret-one', 's3cret-elsewhere');
    expect(unkept.answerDigest).toBeUndefined();
    expect(unkept.bodyJson).toBe(JSON.stringify(unkept.body));
    // An answer without the object asked for is refused every time, never kept.
    for (let i = 0; i < 2; i++) {
      await expect(read('/a-list', 's3cret-one')).rejects.toMatchObject({
        problem: { type: expect.stringMatching(/upstream-invalid-answer$/) },
      });
    }
  });

  it("scrubs every value of the tenant's vault from an answer, under any field name and as a key", async () => {
    const vault = vaultOf(['zq7Kp2Vx9Lm4', 'an0ther-stored-value']);
    const answered = await digested('/echo/zq7Kp2Vx9Lm4', 't0ken', vault);
    expect(answered.body).toEqual({ data: { quoted: '[redacted]', password: '[redacted]' } });

    const refused = (await digested('/refuse/an0ther-stored-value', 't0ken', vault).catch(
      (error: unknown) => error,
    )) as ProblemException;
    expect(refused.problem.status).toBe(409);
    expect(JSON.stringify(refused.problem)).not.toContain('an0ther-stored-value');
    const unusable = (await digested('/unusable', 't0ken', vault).catch(
      (error: unknown) => error,
    )) as ProblemException;
    expect(unusable.problem).toMatchObject({ status: 502, upstream: { requestId: '[redacted]' } });
    expect(refused.problem.upstream?.body).toEqual({
      message: 'conflict with [redacted]',
      owner: '[redacted]',
      '[redacted]': 'taken',
    });
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
          vault: NO_VAULT,
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

describe('UpstreamHttp answers that cannot be used', () => {
  const NO_PROXY = { http: null, https: null, noProxy: '' };
  let server: Server;
  let origin: string;
  let answer: (request: IncomingMessage, response: ServerResponse) => void = () => undefined;
  const clients: UpstreamHttp[] = [];
  const client = (name: 'pipes' | 'dashboards', maxAnswerBytes = 64 * 1024, timeoutMs = 5_000) => {
    const made = new UpstreamHttp(name, origin, timeoutMs, DEFAULT_RETRY_POLICY, () => undefined, {
      maxAnswerBytes,
      proxy: NO_PROXY,
    });
    clients.push(made);
    return made;
  };
  const get = (http: UpstreamHttp, extra: Partial<UpstreamRequest> = {}) =>
    http.send({
      method: 'GET',
      path: '/x',
      authorization: 'Bearer t0ken',
      credentialSecrets: [],
      vault: NO_VAULT,
      requestId: 'r',
      ...extra,
    });

  beforeAll(async () => {
    server = createServer((request, response) => answer(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await Promise.all(clients.map((made) => made.close()));
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each([
    ['Retry-After', 'retry-after'],
    ['X-RateLimit-Reset', 'x-ratelimit-reset'],
  ])('reads how long to wait from %s among a score of other headers', async (_name, header) => {
    answer = (_request, response) => {
      for (let i = 0; i < 20; i++) response.setHeader(`x-cdn-${i}`, 'hit');
      response.setHeader(header, '30');
      response.statusCode = 429;
      response.end('{"status":"error"}');
    };
    const refused = (await get(client('pipes')).catch((error: unknown) => error)) as ProblemException;
    expect(refused.problem).toMatchObject({ status: 429, headers: { 'retry-after': '30' } });
  });

  describe('over the size cap', () => {
    it('reads an answer of exactly the cap', async () => {
      const text = JSON.stringify({ data: { pad: '' } });
      const body = JSON.stringify({ data: { pad: 'x'.repeat(1024 - text.length) } });
      answer = (_request, response) => response.end(body);
      await expect(get(client('dashboards', 1024))).resolves.toMatchObject({ status: 200 });
    });

    it('refuses an announced Content-Length over the cap at once, before reading any of it', async () => {
      let closed = false;
      answer = (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '600000000' });
        response.flushHeaders();
        response.on('close', () => (closed = true));
      };
      const started = Date.now();
      await expect(get(client('pipes'))).rejects.toMatchObject({
        problem: {
          status: 502,
          type: 'upstream-answer-too-large',
          detail: expect.stringContaining('more than 65536 bytes (UPSTREAM_MAX_ANSWER_BYTES)'),
        },
      });
      // The body never comes: only the headers can have told.
      expect(Date.now() - started).toBeLessThan(1_000);
      await waitFor(() => closed);
    });

    it('stops reading an unannounced answer once it passes the cap, drops the connection and tries no more', async () => {
      let calls = 0;
      let written = 0;
      let closed = false;
      answer = (_request, response) => {
        calls += 1;
        response.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(16 * 1024, 'x');
        const pump = () => {
          while (!response.destroyed && written < 600_000_000) {
            written += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
        };
        response.on('close', () => (closed = true));
        pump();
      };
      await expect(get(client('pipes'))).rejects.toMatchObject({
        problem: { status: 502, type: 'upstream-answer-too-large' },
      });
      await waitFor(() => closed);
      expect(calls).toBe(1);
      // What the sockets' buffers took before the connection was dropped; nowhere near 600 MB.
      expect(written).toBeLessThan(16 * 1024 * 1024);
    });
  });

  describe('a success whose body is unusable', () => {
    it.each([
      ['pipes', 'an empty body', '', 'a JSON body'],
      ['pipes', 'null', 'null', 'a JSON object'],
      ['pipes', 'text', 'OK', 'a JSON body'],
      ['pipes', 'a list', '[]', 'a JSON object'],
      ['pipes', 'a string', '"ok"', 'a JSON object'],
      ['pipes', 'an envelope without result', '{"status":200,"requestId":"up-1"}', 'an object in "result"'],
      ['pipes', 'a null result', '{"status":200,"result":null}', 'an object in "result"'],
      ['pipes', 'a list result', '{"status":200,"result":[]}', 'an object in "result"'],
      ['dashboards', 'an empty object', '{}', 'an object in "data"'],
      ['dashboards', 'a null data', '{"data":null}', 'an object in "data"'],
      ['dashboards', 'a text data', '{"data":"x"}', 'an object in "data"'],
    ] as const)(
      '%s: %s is a 502 upstream-invalid-answer keeping the status',
      async (name, _what, body, missing) => {
        answer = (_request, response) => response.writeHead(201).end(body);
        const failure = (await get(client(name)).catch((error: unknown) => error)) as ProblemException;
        expect(failure.problem).toMatchObject({
          status: 502,
          type: 'upstream-invalid-answer',
          upstream: { status: 201, body: null },
          detail: expect.stringContaining(`answered 201 without ${missing};`),
        });
      },
    );

    it('keeps the upstream request id of an envelope without its result', async () => {
      answer = (_request, response) => response.end('{"status":200,"requestId":"up-1"}');
      await expect(get(client('pipes'))).rejects.toMatchObject({
        problem: { upstream: { status: 200, requestId: 'up-1', body: null } },
      });
    });

    it('takes a list where one is asked for, and any JSON or none from a call that reads nothing', async () => {
      answer = (_request, response) => response.end('{"result":[{"id":"a"}]}');
      await expect(get(client('pipes'), { answer: 'list' })).resolves.toMatchObject({
        body: { result: [{ id: 'a' }] },
      });
      await expect(get(client('pipes'))).rejects.toMatchObject({
        problem: { type: 'upstream-invalid-answer' },
      });
      answer = (_request, response) => response.writeHead(204).end();
      await expect(get(client('dashboards'), { method: 'DELETE', answer: 'none' })).resolves.toEqual({
        status: 204,
        body: null,
      });
      answer = (_request, response) => response.end('{"status":200,"requestId":"up-2"}');
      await expect(get(client('pipes'), { method: 'DELETE', answer: 'none' })).resolves.toEqual({
        status: 200,
        body: { status: 200, requestId: 'up-2' },
      });
      answer = (_request, response) => response.end('{"status":200,"result":{"id":"');
      await expect(get(client('pipes'), { method: 'DELETE', answer: 'none' })).rejects.toMatchObject({
        problem: { type: 'upstream-invalid-answer' },
      });
    });
  });

  describe('connection failures', () => {
    const unreachable = (address: string) => ({
      status: 502,
      type: 'upstream-unreachable',
      title: 'Upstream unreachable',
      detail: `The pipes API could not be reached at ${address}.`,
    });
    let warn: jest.SpyInstance;
    beforeEach(() => (warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined)));
    afterEach(() => jest.restoreAllMocks());

    const problemOf = async (http: UpstreamHttp) =>
      ((await get(http).catch((error: unknown) => error)) as ProblemException).problem;
    const loggedCodes = () => warn.mock.calls.map(([fields]) => (fields as { code: string }).code);

    it('reads alike whether the port is closed, the connection reset or the name unknown; the cause is logged', async () => {
      const closedPort = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as AddressInfo;
          probe.close(() => resolve(port));
        });
      });
      const refused = new UpstreamHttp('pipes', `http://127.0.0.1:${closedPort}`, 2_000);
      answer = (request) => request.socket.resetAndDestroy();
      const reset = client('pipes');
      // No name is looked up for real: the lookup fails as an unknown name does.
      jest
        .spyOn(dns, 'lookup')
        .mockImplementation(((
          _host: string,
          _options: unknown,
          callback: (error: NodeJS.ErrnoException) => void,
        ) => callback(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }))) as never);
      const unknownName = new UpstreamHttp('pipes', 'http://pipes.gateway-test.invalid', 2_000);
      try {
        expect(await problemOf(refused)).toEqual(unreachable(`http://127.0.0.1:${closedPort}`));
        expect(await problemOf(reset)).toEqual(unreachable(new URL(origin).origin));
        expect(await problemOf(unknownName)).toEqual(unreachable('http://pipes.gateway-test.invalid:80'));
        expect(new Set(loggedCodes())).toEqual(new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND']));
        expect(warn.mock.calls[0][0]).toEqual({
          upstream: 'pipes',
          address: `http://127.0.0.1:${closedPort}`,
          requestId: 'r',
          code: 'ECONNREFUSED',
        });
      } finally {
        await Promise.all([refused.close(), unknownName.close()]);
      }
    });
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 2_000) throw new Error('condition not met within 2 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
