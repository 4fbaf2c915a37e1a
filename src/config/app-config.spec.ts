import { ConfigError, loadConfig, parseRateLimit } from './app-config';

describe('loadConfig', () => {
  it('gives sane defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.http.port).toBe(3000);
    expect(config.database.url).toBeNull();
    expect(config.database.dataDir).toBe('./data');
    expect(config.upstream.timeoutMs).toBe(10_000);
    expect(config.rateLimits.perKey).toEqual({ limit: 600, windowMs: 60_000 });
    expect(config.rateLimits.failedAuth).toEqual({ limit: 30, windowMs: 60_000 });
    expect(config.rateLimits.pipesApi).toEqual({ limit: 10, windowMs: 10_000 });
    expect(config.rateLimits.dashboardsApi).toEqual({ limit: 100, windowMs: 60_000 });
    expect(config.auditRetentionDays).toBeNull();
    expect(config.maxWritesInFlight).toBe(64);
    expect(config.http.bodyLimitBytes).toBe(1024 * 1024);
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT must be a whole number/],
    [{ PORT: '70000' }, /^PORT must be a whole number from 0 to 65535/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must be a postgres/],
    [{ PIPES_API_URL: 'not a url' }, /^PIPES_API_URL must be an absolute http\(s\) URL/],
    [{ DASHBOARDS_API_URL: 'ftp://x' }, /^DASHBOARDS_API_URL must be an http\(s\) URL/],
    [{ PIPES_API_URL: 'https://user:pw@api.example.com' }, /^PIPES_API_URL must not carry credentials/],
    [{ UPSTREAM_TIMEOUT_MS: '5' }, /^UPSTREAM_TIMEOUT_MS must be a whole number from 100/],
    [{ RATE_LIMIT_PER_KEY: '10 per minute' }, /^RATE_LIMIT_PER_KEY must be written N\/<duration>/],
    [{ PIPES_API_RATE_LIMIT: '0/10s' }, /^PIPES_API_RATE_LIMIT must be written/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ NODE_ENV: 'staging' }, /^NODE_ENV must be development, production or test/],
    [{ GATEWAY_ADMIN_TOKEN: 'short' }, /^GATEWAY_ADMIN_TOKEN must be at least 32 characters/],
    [{ CORS_ORIGINS: '*' }, /^CORS_ORIGINS must list origins explicitly/],
    [
      { DASHBOARDS_ALLOWED_HOSTS: 'ok.example.com,bad host' },
      /^DASHBOARDS_ALLOWED_HOSTS must be a comma-separated/,
    ],
    [{ REDIS_URL: 'localhost:6379' }, /^REDIS_URL must be a redis:\/\//],
    [{ AUDIT_RETENTION_DAYS: '-1' }, /^AUDIT_RETENTION_DAYS must be a whole number/],
    [{ MAX_WRITES_IN_FLIGHT: '0' }, /^MAX_WRITES_IN_FLIGHT must be a whole number from 1/],
  ])('rejects %p naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('parses rate limits in every unit and 0 as off', () => {
    expect(parseRateLimit('X', '5/500ms')).toEqual({ limit: 5, windowMs: 500 });
    expect(parseRateLimit('X', '100/2m')).toEqual({ limit: 100, windowMs: 120_000 });
    expect(parseRateLimit('X', '1/1h')).toEqual({ limit: 1, windowMs: 3_600_000 });
    expect(parseRateLimit('X', '0')).toBeNull();
  });

  it('never lets the sandbox loosen upstream rules in production', () => {
    expect(loadConfig({ SANDBOX: 'true' }).upstream.allowInsecureUpstreams).toBe(true);
    expect(loadConfig({ SANDBOX: 'true', NODE_ENV: 'production' }).upstream.allowInsecureUpstreams).toBe(
      false,
    );
  });

  it('normalises lists', () => {
    const config = loadConfig({
      CORS_ORIGINS: 'https://a.example.com/, http://localhost:5173',
      DASHBOARDS_ALLOWED_HOSTS: 'Dash.Example.com, 127.0.0.1:8080',
    });
    expect(config.http.corsOrigins).toEqual(['https://a.example.com', 'http://localhost:5173']);
    expect(config.upstream.dashboardsAllowedHosts).toEqual(['dash.example.com', '127.0.0.1:8080']);
  });
});

describe('loadConfig: database timeouts, write shares and audit checkpoints', () => {
  it('defaults them', () => {
    const config = loadConfig({});
    expect(config.database.queryTimeoutMs).toBe(5_000);
    expect(config.tenantWriteShare).toBe(8);
    expect(loadConfig({ MAX_WRITES_IN_FLIGHT: '4' }).tenantWriteShare).toBe(1);
    expect(config.auditCheckpointIntervalMs).toBe(3_600_000);
    expect(config.auditChainKeys).toBeNull();
  });

  it('reads them', () => {
    const config = loadConfig({
      DATABASE_QUERY_TIMEOUT_MS: '2500',
      TENANT_WRITE_SHARE: '3',
      AUDIT_CHECKPOINT_INTERVAL: '15m',
      AUDIT_CHAIN_KEYS: 'v1:abc',
    });
    expect(config.database.queryTimeoutMs).toBe(2_500);
    expect(config.tenantWriteShare).toBe(3);
    expect(config.auditCheckpointIntervalMs).toBe(900_000);
    expect(config.auditChainKeys).toBe('v1:abc');
    expect(loadConfig({ AUDIT_CHECKPOINT_INTERVAL: '0' }).auditCheckpointIntervalMs).toBeNull();
  });

  it.each([
    [{ DATABASE_QUERY_TIMEOUT_MS: '50' }, /^DATABASE_QUERY_TIMEOUT_MS must be a whole number from 100/],
    [{ TENANT_WRITE_SHARE: '0' }, /^TENANT_WRITE_SHARE must be a whole number from 1 to 64/],
    [
      { MAX_WRITES_IN_FLIGHT: '4', TENANT_WRITE_SHARE: '5' },
      /^TENANT_WRITE_SHARE must be a whole number from 1 to 4/,
    ],
    [{ AUDIT_CHECKPOINT_INTERVAL: '10' }, /^AUDIT_CHECKPOINT_INTERVAL must be a duration from 1s to 24h/],
    [{ AUDIT_CHECKPOINT_INTERVAL: '500ms' }, /^AUDIT_CHECKPOINT_INTERVAL must be a duration/],
    [{ AUDIT_CHECKPOINT_INTERVAL: '2d' }, /^AUDIT_CHECKPOINT_INTERVAL must be a duration/],
  ])('refuses %p naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
