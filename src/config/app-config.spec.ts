import { ConfigError, loadConfig, parseRateLimit } from './app-config';

describe('loadConfig', () => {
  it('gives sane defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.http.port).toBe(3000);
    expect(config.database.url).toBeNull();
    expect(config.database.dataDir).toBe('./data');
    expect(config.upstream.timeoutMs).toBe(10_000);
    expect(config.upstream.pipesApiResource).toBe('pipes');
    expect(config.rateLimits.perKey).toEqual({ limit: 600, windowMs: 60_000 });
    expect(config.rateLimits.failedAuth).toEqual({ limit: 30, windowMs: 60_000 });
    expect(config.rateLimits.pipesApi).toEqual({ limit: 10, windowMs: 10_000 });
    expect(config.rateLimits.dashboardsApi).toEqual({ limit: 100, windowMs: 60_000 });
    expect(config.auditRetentionDays).toBeNull();
    expect(config.maxWritesInFlight).toBe(256);
    expect(config.http.bodyLimitBytes).toBe(1024 * 1024);
    expect(config.http).toMatchObject({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      shutdownDrainMs: 5_000,
    });
    expect(config.upstream.maxAnswerBytes).toBe(4 * 1024 * 1024);
    expect(config.upstream.proxy).toEqual({ http: null, https: null, noProxy: '' });
  });

  it('gives a whole request at least as long as its headers unless told', () => {
    expect(loadConfig({ HEADERS_TIMEOUT_MS: '60000' }).http).toMatchObject({
      headersTimeoutMs: 60_000,
      requestTimeoutMs: 60_000,
    });
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT must be a whole number/],
    [{ PORT: '70000' }, /^PORT must be a whole number from 0 to 65535/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must be a postgres/],
    [{ PIPES_API_URL: 'not a url' }, /^PIPES_API_URL must be an absolute http\(s\) URL/],
    [{ DASHBOARDS_API_URL: 'ftp://x' }, /^DASHBOARDS_API_URL must be an http\(s\) URL/],
    [{ PIPES_API_URL: 'https://user:pw@api.example.com' }, /^PIPES_API_URL must not carry credentials/],
    [{ PIPES_API_RESOURCE: '../admin' }, /^PIPES_API_RESOURCE must be one path segment/],
    [{ PIPES_API_RESOURCE: 'click pipes' }, /^PIPES_API_RESOURCE must be one path segment/],
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
    [
      { DASHBOARDS_ALLOWED_HOSTS: 'dash.example.com:0' },
      /^DASHBOARDS_ALLOWED_HOSTS must be a comma-separated list of host or host:port/,
    ],
    [{ DASHBOARDS_ALLOWED_HOSTS: 'dash.example.com:70000' }, /^DASHBOARDS_ALLOWED_HOSTS must be/],
    [{ DASHBOARDS_ALLOWED_HOSTS: '[not-v6]:443' }, /^DASHBOARDS_ALLOWED_HOSTS must be/],
    [{ UPSTREAM_MAX_ANSWER_BYTES: '4MiB' }, /^UPSTREAM_MAX_ANSWER_BYTES must be a whole number from 1024/],
    [{ UPSTREAM_MAX_ANSWER_BYTES: '100' }, /^UPSTREAM_MAX_ANSWER_BYTES must be a whole number from 1024/],
    [{ HTTPS_PROXY: 'proxy.internal:3128' }, /^HTTPS_PROXY must be a proxy URL such as http:\/\/proxy/],
    [{ http_proxy: 'ftp://proxy.internal' }, /^http_proxy must be a proxy URL/],
    [{ ALL_PROXY: 'http://proxy.internal:3128/some/path' }, /^ALL_PROXY must be a proxy URL/],
    [{ REDIS_URL: 'localhost:6379' }, /^REDIS_URL must be a redis:\/\//],
    [{ AUDIT_RETENTION_DAYS: '-1' }, /^AUDIT_RETENTION_DAYS must be a whole number/],
    [{ MAX_WRITES_IN_FLIGHT: '0' }, /^MAX_WRITES_IN_FLIGHT must be a whole number from 1/],
    [{ HEADERS_TIMEOUT_MS: '10s' }, /^HEADERS_TIMEOUT_MS must be a whole number from 100 to 600000/],
    [{ REQUEST_TIMEOUT_MS: '50' }, /^REQUEST_TIMEOUT_MS must be a whole number from 100/],
    [
      { HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '15000' },
      /^REQUEST_TIMEOUT_MS must be at least HEADERS_TIMEOUT_MS \(20000\) \(got "15000"\)/,
    ],
    [{ TRUST_PROXY: 'yes' }, /^TRUST_PROXY must be false, true \(one proxy\), a hop count/],
    [{ TRUST_PROXY: '11' }, /^TRUST_PROXY must be a whole number from 0 to 10/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /^TRUST_PROXY must be .* \(got "10.0.0.0\/33"\)/],
    [{ TRUST_PROXY: '10.0.0.1, proxy.internal' }, /^TRUST_PROXY must be .* \(got "proxy.internal"\)/],
    [
      { REDIS_URL: 'redis://localhost:6379', PIPES_API_RATE_LIMIT: '2/500ms' },
      /^PIPES_API_RATE_LIMIT must use a window of whole seconds when REDIS_URL is set/,
    ],
    [{ OIDC_AUDIENCE: 'gateway' }, /^OIDC_AUDIENCE is set but OIDC_ISSUER is not/],
    [{ OIDC_ISSUER: 'https://login.example.com' }, /^OIDC_AUDIENCE must be set when OIDC_ISSUER is/],
    [
      { OIDC_ISSUER: 'login.example.com', OIDC_AUDIENCE: 'g' },
      /^OIDC_ISSUER must be the issuer's absolute https URL/,
    ],
    [{ OIDC_ISSUER: 'http://login.example.com', OIDC_AUDIENCE: 'g' }, /^OIDC_ISSUER must be an https URL/],
    [
      { OIDC_ISSUER: 'http://127.0.0.1:4030', OIDC_AUDIENCE: 'g', NODE_ENV: 'production' },
      /^OIDC_ISSUER must be an https URL \(plain http only on loopback, outside production\)/,
    ],
    [
      { OIDC_ISSUER: 'https://u:p@login.example.com', OIDC_AUDIENCE: 'g' },
      /^OIDC_ISSUER must not carry credentials/,
    ],
    [
      { OIDC_ISSUER: 'https://login.example.com', OIDC_AUDIENCE: 'g', OIDC_GROUPS_CLAIM: 'my groups' },
      /^OIDC_GROUPS_CLAIM must be a claim name/,
    ],
    [
      { OIDC_ISSUER: 'https://login.example.com', OIDC_AUDIENCE: 'g', OIDC_JWKS_COOLDOWN_MS: '10' },
      /^OIDC_JWKS_COOLDOWN_MS must be a whole number from 1000/,
    ],
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

  it('reads host:port allow-list entries, IPv6 in brackets', () => {
    const config = loadConfig({ DASHBOARDS_ALLOWED_HOSTS: 'Obs.Example.com:8443, ::1, [fd00::2]:9000' });
    expect(config.upstream.dashboardsAllowedHosts).toEqual([
      'obs.example.com:8443',
      '[::1]',
      '[fd00::2]:9000',
    ]);
  });

  it('reads the answer cap', () => {
    expect(loadConfig({ UPSTREAM_MAX_ANSWER_BYTES: '1048576' }).upstream.maxAnswerBytes).toBe(1_048_576);
  });

  it('reads proxies as axios does: per scheme, lower case first, ALL_PROXY as the fallback', () => {
    expect(
      loadConfig({
        http_proxy: 'http://lower.internal:3128',
        HTTP_PROXY: 'http://upper.internal:3128',
        ALL_PROXY: 'http://all.internal:3128',
        NO_PROXY: 'localhost,.internal.example.com',
      }).upstream.proxy,
    ).toEqual({
      http: 'http://lower.internal:3128',
      https: 'http://all.internal:3128',
      noProxy: 'localhost,.internal.example.com',
    });
    expect(loadConfig({ HTTPS_PROXY: 'https://proxy.internal' }).upstream.proxy).toEqual({
      http: null,
      https: 'https://proxy.internal',
      noProxy: '',
    });
  });

  it('never repeats a proxy URL, which may carry a password, in its error', () => {
    expect(() => loadConfig({ HTTPS_PROXY: 'ftp://user:s3cret-pw@proxy.internal' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('s3cret-pw') }),
    );
  });

  it('reads TRUST_PROXY as no proxy, a hop count, or proxy addresses; true is one hop', () => {
    const trust = (value?: string) =>
      loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).http.trustProxy;
    expect(trust()).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('true')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 192.168.1.7,::1,fd00::/8, loopback')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('turns sign-in on with OIDC_ISSUER and OIDC_AUDIENCE, keeping the issuer exactly as written', () => {
    expect(loadConfig({}).oidc).toBeNull();
    expect(
      loadConfig({ OIDC_ISSUER: 'https://tenant.auth0.example.com/', OIDC_AUDIENCE: 'gateway' }).oidc,
    ).toEqual({
      issuer: 'https://tenant.auth0.example.com/',
      audience: 'gateway',
      groupsClaim: 'groups',
      userClaim: 'email',
      jwksCooldownMs: 60_000,
    });
    const custom = loadConfig({
      OIDC_ISSUER: 'http://localhost:4030',
      OIDC_AUDIENCE: 'gateway',
      OIDC_GROUPS_CLAIM: 'https://example.com/groups',
      OIDC_USER_CLAIM: 'preferred_username',
    }).oidc;
    expect(custom).toMatchObject({
      groupsClaim: 'https://example.com/groups',
      userClaim: 'preferred_username',
    });
  });

  it("reads the console's OIDC client id, only beside an issuer", () => {
    expect(loadConfig({}).console).toEqual({ oidcClientId: null });
    const issuer = { OIDC_ISSUER: 'https://login.example.com/', OIDC_AUDIENCE: 'gateway' };
    expect(loadConfig({ ...issuer, CONSOLE_OIDC_CLIENT_ID: 'pipes-console' }).console).toEqual({
      oidcClientId: 'pipes-console',
    });
    expect(() => loadConfig({ CONSOLE_OIDC_CLIENT_ID: 'pipes-console' })).toThrow(
      /^CONSOLE_OIDC_CLIENT_ID is set but OIDC_ISSUER is not/,
    );
    expect(() => loadConfig({ ...issuer, CONSOLE_OIDC_CLIENT_ID: 'two words' })).toThrow(
      /^CONSOLE_OIDC_CLIENT_ID must be the client id the issuer gave the console/,
    );
  });

  it('keeps whole-second windows with Redis', () => {
    const config = loadConfig({ REDIS_URL: 'redis://localhost:6379', PIPES_API_RATE_LIMIT: '2/1000ms' });
    expect(config.rateLimits.pipesApi).toEqual({ limit: 2, windowMs: 1000 });
  });
});

describe('loadConfig: database timeouts, write shares and audit checkpoints', () => {
  it('defaults them', () => {
    const config = loadConfig({});
    expect(config.database.queryTimeoutMs).toBe(5_000);
    expect(config.tenantWriteShare).toBe(32);
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
    [{ TENANT_WRITE_SHARE: '0' }, /^TENANT_WRITE_SHARE must be a whole number from 1 to 256/],
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

describe('loadConfig: pipe reads and pipe event streams', () => {
  it('defaults them', () => {
    const config = loadConfig({});
    expect(config.pipeReads.cacheMs).toBe(2_000);
    expect(config.pipeEvents).toEqual({
      pollMs: 2_000,
      heartbeatMs: 15_000,
      recheckMs: 30_000,
      perKey: 10,
      perTenant: 2_000,
      maxBufferBytes: 256 * 1024,
      replay: 256,
      keptBytesPerService: 1024 * 1024,
      keptBytes: 64 * 1024 * 1024,
      idlePollMs: 16_000,
      pollWarnMs: 60_000,
      resumeWindowMs: 600_000,
      maxLifetimeMs: 3_600_000,
    });
  });

  it('backs polls off to 8 times their interval unless told, and never below it', () => {
    expect(loadConfig({ PIPES_API_RATE_LIMIT: '3/60s' }).pipeEvents.idlePollMs).toBe(320_000);
    expect(loadConfig({ PIPE_EVENTS_IDLE_POLL_MS: '2000' }).pipeEvents.idlePollMs).toBe(2_000);
    expect(() => loadConfig({ PIPE_EVENTS_IDLE_POLL_MS: '1000' })).toThrow(
      /^PIPE_EVENTS_IDLE_POLL_MS must be at least PIPE_EVENTS_POLL_MS \(2000\)/,
    );
  });

  it('reads them, a cache of 0 included', () => {
    const config = loadConfig({
      PIPE_READ_CACHE_MS: '0',
      PIPE_EVENTS_POLL_MS: '5000',
      PIPE_STREAM_HEARTBEAT_MS: '1000',
      PIPE_STREAMS_PER_KEY: '2',
    });
    expect(config.pipeReads.cacheMs).toBe(0);
    expect(config.pipeEvents).toMatchObject({ pollMs: 5_000, heartbeatMs: 1_000, perKey: 2 });
  });

  it('turns the pipe read cache off', () => {
    expect(loadConfig({ PIPE_READ_CACHE_MS: 'off' }).pipeReads.cacheMs).toBeNull();
  });

  it('polls no faster than half the pipes API budget allows, when the interval is left unset', () => {
    expect(loadConfig({ PIPES_API_RATE_LIMIT: '3/60s' }).pipeEvents.pollMs).toBe(40_000);
    expect(loadConfig({ PIPES_API_RATE_LIMIT: '100/10s' }).pipeEvents.pollMs).toBe(2_000);
  });

  it('lets the poller run faster only when the pipes API budget allows it', () => {
    expect(loadConfig({ PIPE_EVENTS_POLL_MS: '500', PIPES_API_RATE_LIMIT: '0' }).pipeEvents.pollMs).toBe(500);
    expect(() => loadConfig({ PIPE_EVENTS_POLL_MS: '1000' })).toThrow(
      /^PIPE_EVENTS_POLL_MS must be at least 2000 with PIPES_API_RATE_LIMIT at 10\/10000ms: polling may spend at most half the budget/,
    );
  });

  it.each([
    [{ PIPE_READ_CACHE_MS: '-1' }, /^PIPE_READ_CACHE_MS must be a whole number from 0 to 60000, or off/],
    [{ PIPE_READ_CACHE_MS: '60001' }, /^PIPE_READ_CACHE_MS must be a whole number from 0 to 60000/],
    [{ PIPE_READ_CACHE_MS: '2s' }, /^PIPE_READ_CACHE_MS must be a whole number/],
    [{ PIPE_EVENTS_POLL_MS: '100' }, /^PIPE_EVENTS_POLL_MS must be a whole number from 500/],
    [{ PIPE_STREAMS_PER_KEY: '0' }, /^PIPE_STREAMS_PER_KEY must be a whole number from 1/],
    [{ PIPE_EVENTS_RESUME_MS: '999' }, /^PIPE_EVENTS_RESUME_MS must be a whole number from 1000 to 86400000/],
    [
      { PIPE_EVENTS_KEPT_BYTES: '1000000', PIPE_EVENTS_KEPT_BYTES_PER_SERVICE: '2000000' },
      /^PIPE_EVENTS_KEPT_BYTES_PER_SERVICE must be a whole number from 1024 to 1000000/,
    ],
    [{ PIPE_EVENTS_KEPT_BYTES: '1024' }, /^PIPE_EVENTS_KEPT_BYTES must be a whole number from 65536/],
    [{ PIPE_EVENTS_POLL_WARN_MS: '10' }, /^PIPE_EVENTS_POLL_WARN_MS must be a whole number from 1000/],
    [
      { PIPE_STREAM_MAX_BUFFER_BYTES: '10' },
      /^PIPE_STREAM_MAX_BUFFER_BYTES must be a whole number from 1024/,
    ],
  ])('refuses %p naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('loadConfig: the upstream budget split', () => {
  it('keeps half of each window for writes and a fifth of reads for each caller unless told', () => {
    expect(loadConfig({}).upstreamBudget).toEqual({ writeReserve: 0.5, callerReadShare: 0.2 });
    expect(
      loadConfig({ UPSTREAM_WRITE_RESERVE: '0', UPSTREAM_CALLER_READ_SHARE: '1' }).upstreamBudget,
    ).toEqual({ writeReserve: 0, callerReadShare: 1 });
  });

  it.each([
    [
      { UPSTREAM_WRITE_RESERVE: '0.95' },
      /^UPSTREAM_WRITE_RESERVE must be a fraction from 0 to 0.9 such as 0.5 \(got "0.95"\)$/,
    ],
    [{ UPSTREAM_WRITE_RESERVE: '50%' }, /^UPSTREAM_WRITE_RESERVE must be a fraction/],
    [{ UPSTREAM_CALLER_READ_SHARE: '0' }, /^UPSTREAM_CALLER_READ_SHARE must be a fraction from 0.01 to 1/],
    [{ UPSTREAM_CALLER_READ_SHARE: '-0.5' }, /^UPSTREAM_CALLER_READ_SHARE must be a fraction/],
  ])('rejects %p naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
