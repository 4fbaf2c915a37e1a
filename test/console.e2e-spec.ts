/**
 * The web console as the gateway serves it at /console: its own strict Content-Security-Policy
 * (the API's headers unchanged), its settings at /console/config.json, caching, and its size.
 * test/console-browser.e2e-spec.ts drives it in a browser.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { protectiveHeaders } from '../src/common/protective-headers';
import { JS_BUDGET_BYTES } from '../console/src/budget';
import { buildConsole, type ConsoleBuild } from './support/console-build';
import { startGateway, type TestGateway } from './support/gateway';

/** A GET whose body is kept as sent: compressed if the server compressed it. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name, values]),
  );
}

describe('the console at /console (e2e)', () => {
  let build: ConsoleBuild;
  let gateway: TestGateway;

  beforeAll(async () => {
    build = await buildConsole();
    gateway = await startGateway({}, { consoleDirectory: build.directory });
  });
  afterAll(async () => {
    await gateway?.close();
    build?.remove();
  });

  it('redirects /console to /console/ and serves the page under a strict policy of its own', async () => {
    await gateway.http.get('/console').expect(302).expect('location', '/console/');
    const page = await gateway.http.get('/console/').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['x-request-id']).toEqual(expect.any(String));
    const policy = directives(page.headers['content-security-policy']);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(page.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/);
    // Every script is a file the policy allows: none inline, no inline styles or handlers either.
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.text).not.toMatch(/\sstyle=|\son[a-z]+=/i);
  });

  it('serves hashed assets for good, under the same policy', async () => {
    const [script] = readdirSync(join(build.directory, 'assets')).filter((name) => name.endsWith('.js'));
    const asset = await gateway.http.get(`/console/assets/${script}`).expect(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-security-policy']).toContain("script-src 'self'");
    const gzipped = await rawGet(`${gateway.url}/console/assets/${script}`, { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(gzipped.body).toString()).toBe(asset.text);
    const missing = await gateway.http.get('/console/assets/missing.js').expect(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it("leaves the API's headers as they were", async () => {
    const api = await gateway.http.get('/health/live').expect(200);
    expect(api.headers['content-security-policy']).toBe(protectiveHeaders()['content-security-policy']);
    const docs = await gateway.http.get('/docs').expect(200);
    expect(docs.headers['content-security-policy']).toBe(protectiveHeaders()['content-security-policy']);
  });

  it('answers its settings: no sign-in without a console client id', async () => {
    const settings = await gateway.http.get('/console/config.json').expect(200);
    expect(settings.headers['cache-control']).toBe('no-store');
    expect(settings.body).toEqual({ signIn: null });
  });

  it('ships at most its JavaScript budget, gzipped', () => {
    expect(JS_BUDGET_BYTES).toBe(250 * 1024);
    expect(build.gzippedJavaScriptBytes()).toBeLessThanOrEqual(JS_BUDGET_BYTES);
  });

  it('names the issuer to sign in at, and lets the page reach only it besides the gateway', async () => {
    const signingIn = await startGateway(
      {
        OIDC_ISSUER: 'http://127.0.0.1:4999/realms/main',
        OIDC_AUDIENCE: 'pipes-gateway',
        CONSOLE_OIDC_CLIENT_ID: 'pipes-console',
      },
      { consoleDirectory: build.directory },
    );
    try {
      const settings = await signingIn.http.get('/console/config.json').expect(200);
      expect(settings.body).toEqual({
        signIn: { issuer: 'http://127.0.0.1:4999/realms/main', clientId: 'pipes-console' },
      });
      const page = await signingIn.http.get('/console/').expect(200);
      expect(directives(page.headers['content-security-policy']).get('connect-src')).toEqual([
        "'self'",
        'http://127.0.0.1:4999',
      ]);
    } finally {
      await signingIn.close();
    }
  });

  it('says how to build it when it is not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'pipes-console-empty-'));
    const unbuilt = await startGateway({}, { consoleDirectory: empty });
    try {
      const page = await unbuilt.http.get('/console/').expect(404);
      expect(page.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(page.body.detail).toContain('npm run build');
      await unbuilt.http.get('/console/config.json').expect(200);
    } finally {
      await unbuilt.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
