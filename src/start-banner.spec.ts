import { loadConfig } from './config/app-config';
import { describeDatabase, listeningBase, startBanner } from './start-banner';

const banner = (env: Record<string, string>) =>
  startBanner(loadConfig({ DATA_DIR: '/var/lib/gateway', ...env }), 'http://localhost:3000');

describe('startBanner', () => {
  it('says where the gateway and its docs are, which database it uses, and which ways in are open', () => {
    expect(banner({}).split('\n')).toEqual([
      'pipes-gateway listening on http://localhost:3000',
      '  docs:       http://localhost:3000/docs (OpenAPI document: http://localhost:3000/docs-json)',
      '  database:   embedded, in /var/lib/gateway/pglite (DATABASE_URL is not set)',
      '  pipes:      https://api.clickhouse.cloud:443 (PIPES_API_URL)',
      '  dashboards: https://api.hyperdx.io:443 (DASHBOARDS_API_URL)',
      '  admin:      platform routes /v1/admin closed (GATEWAY_ADMIN_TOKEN is not set; the CLI still works)',
      '  sign-in:    gateway keys only (OIDC_ISSUER is not set)',
      '  tracing:    off (OTEL_EXPORTER_OTLP_ENDPOINT is not set, or OTEL_SDK_DISABLED is true)',
      '  console:    http://localhost:3000/console/ (takes a pasted gateway key: CONSOLE_OIDC_CLIENT_ID is not set)',
    ]);
  });

  it('names each upstream by scheme, host and port, never its path', () => {
    const text = banner({
      PIPES_API_URL: 'http://127.0.0.1:4010/base/t0ken',
      DASHBOARDS_API_URL: 'https://dash.internal:8443/x/y',
    });
    expect(text).toContain('  pipes:      http://127.0.0.1:4010 (PIPES_API_URL)');
    expect(text).toContain('  dashboards: https://dash.internal:8443 (DASHBOARDS_API_URL)');
    expect(text).not.toMatch(/t0ken|\/base|\/x\/y/);
  });

  it('says when the admin routes and sign-in are on', () => {
    const text = banner({
      GATEWAY_ADMIN_TOKEN: 'a'.repeat(40),
      OIDC_ISSUER: 'https://login.example.com/',
      OIDC_AUDIENCE: 'pipes-gateway',
      CONSOLE_OIDC_CLIENT_ID: 'pipes-console',
    });
    expect(text).toContain(
      '  console:    http://localhost:3000/console/ (people sign in at the issuer as client pipes-console)',
    );
    expect(text).toContain('  admin:      platform routes /v1/admin open to the GATEWAY_ADMIN_TOKEN bearer');
    expect(text).toContain(
      '  sign-in:    OIDC tokens from https://login.example.com/ for audience pipes-gateway, beside gateway keys',
    );
    expect(text).not.toContain('a'.repeat(40));
  });
  it('says where traces go: scheme, host and port of the endpoint, never its path or user-info', () => {
    const text = startBanner(loadConfig({ DATA_DIR: '/var/lib/gateway' }), 'http://localhost:3000', {
      protocol: 'http/json',
      endpoint: 'https://ingest:s3cret@traces.example.com/otlp/v1/traces',
      endpointVariable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    });
    expect(text).toContain(
      '  tracing:    OTLP http/json to https://traces.example.com:443 (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)',
    );
    expect(text).not.toMatch(/s3cret|\/otlp/);
  });
});

describe('describeDatabase', () => {
  it('names the Postgres server, database and user, and never a password or an option', () => {
    const url =
      'postgresql://gateway:s3cret-pw@db.internal:5433/pipes_gateway?sslmode=require&password=other-pw';
    const text = describeDatabase({ url, dataDir: './data' });
    expect(text).toBe('Postgres pipes_gateway on db.internal:5433 as gateway');
    expect(text).not.toMatch(/s3cret|other-pw/);
  });

  it('says when the embedded database lives only in memory', () => {
    expect(describeDatabase({ url: null, dataDir: 'memory://' })).toBe(
      'embedded, in memory (gone when the process stops)',
    );
  });
});

describe('listeningBase', () => {
  const listeningOn = (port: number) => ({ address: () => ({ address: '::', family: 'IPv6', port }) });

  it('names the actual port, and localhost for every interface', () => {
    expect(listeningBase(listeningOn(41234), '0.0.0.0')).toBe('http://localhost:41234');
    expect(listeningBase(listeningOn(41234), '::')).toBe('http://localhost:41234');
    expect(listeningBase(listeningOn(3000), '127.0.0.1')).toBe('http://127.0.0.1:3000');
    expect(listeningBase(listeningOn(3000), '::1')).toBe('http://[::1]:3000');
  });
});
