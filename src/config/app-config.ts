import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

/** A rate limit written `N/<duration>` (e.g. `600/60s`); `0` turns it off (null). */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  http: {
    port: number;
    host: string;
    bodyLimitBytes: number;
    corsOrigins: string[];
    /**
     * Which X-Forwarded-For entries to believe for the client address: none (false), the last
     * N hops (a count), or those added by the listed proxy addresses and ranges.
     */
    trustProxy: false | number | string[];
    /** Longest a client may take to send a request's headers; then 408 and the connection closes. */
    headersTimeoutMs: number;
    /** Longest a client may take to send a whole request, headers and body; then 408 likewise. */
    requestTimeoutMs: number;
    /** After SIGTERM, how long readiness fails while requests are still served, before the server closes. */
    shutdownDrainMs: number;
  };
  database: {
    /** Postgres connection string; null means the embedded PGlite database. */
    url: string | null;
    /** Folder of the embedded database and (outside production) the generated master key. */
    dataDir: string;
    /** Postgres only: longest a statement may run, or go unanswered, before the request fails with 503. */
    queryTimeoutMs: number;
  };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  adminToken: string | null;
  /** Raw key ring text; parsed and checked by the crypto module. */
  encryptionKeys: string | null;
  /** Raw AUDIT_CHAIN_KEYS text, the audit chain's HMAC keys; parsed and checked by the crypto module. */
  auditChainKeys: string | null;
  /** Raw AUDIT_SIGNING_KEYS text, the Ed25519 keys that sign audit checkpoints; parsed by the crypto module. */
  auditSigningKeys: string | null;
  upstream: {
    pipesApiUrl: string;
    /** The pipes path segment: `pipes` as the contract names it, `clickpipes` on the real service. */
    pipesApiResource: string;
    dashboardsApiUrl: string;
    /** `host` (the scheme's default port only) or `host:port`, lower case; IPv6 in brackets. */
    dashboardsAllowedHosts: string[];
    timeoutMs: number;
    /** Largest upstream answer read, in bytes; a larger one is dropped unread past this. */
    maxAnswerBytes: number;
    proxy: UpstreamProxy;
    /** Lets credentials name plain-http upstreams on loopback (the local simulators). */
    allowInsecureUpstreams: boolean;
  };
  /** Sign-in with tokens from an OpenID Connect issuer; null when OIDC_ISSUER is unset. */
  oidc: OidcConfig | null;
  console: {
    /** The console's public client at the OIDC issuer; null: the console takes a pasted gateway key. */
    oidcClientId: string | null;
  };
  redisUrl: string | null;
  rateLimits: {
    perKey: RateLimit | null;
    perTenant: RateLimit | null;
    failedAuth: RateLimit | null;
    pipesApi: RateLimit | null;
    dashboardsApi: RateLimit | null;
    /** Answers scrubbed of vault values a caller's own request carried outside secret places, per caller. */
    valueEchoes: RateLimit | null;
  };
  /** How each upstream credential's budget (PIPES_API_RATE_LIMIT, DASHBOARDS_API_RATE_LIMIT) is split. */
  upstreamBudget: {
    /** The fraction of each window only writes may take. */
    writeReserve: number;
    /** The fraction of reads' share each caller is guaranteed. */
    callerReadShare: number;
  };
  /** Audited writes (pipe create and update, dashboard replace and restore) at once in one process. */
  maxWritesInFlight: number;
  /** The write slots each tenant is guaranteed; beyond it a tenant uses what others may not need. */
  tenantWriteShare: number;
  auditRetentionDays: number | null;
  /** How often each tenant's moved audit chain head is written to the log as a signed checkpoint; null: never. */
  auditCheckpointIntervalMs: number | null;
  /** Where the audit log is also delivered, and how (src/audit-sinks). */
  auditSinks: AuditSinksConfig;
  pipeReads: {
    /**
     * How long a pipe read (list, get, settings) is served from the tenant's cache; 0: only reads in
     * flight are shared; null (`off`): none shared, every read its own upstream call.
     */
    cacheMs: number | null;
  };
  pipeEvents: {
    /** How often the one poller of a (tenant, service) lists its pipes upstream. */
    pollMs: number;
    /** How often an idle stream gets a comment line, so proxies keep it open. */
    heartbeatMs: number;
    /** How often a stream's credential is checked again (a revoked key or expired token ends it). */
    recheckMs: number;
    /** Open streams per gateway key (per person for users), per replica. */
    perKey: number;
    /** Open streams per tenant, per replica. */
    perTenant: number;
    /** Bytes a stream may have waiting for a slow reader before it is dropped. */
    maxBufferBytes: number;
    /** Recent events kept per service for Last-Event-ID. */
    replay: number;
    /** Bytes of events kept for Last-Event-ID per service, and in all: past either the oldest are dropped. */
    keptBytesPerService: number;
    keptBytes: number;
    /** Longest wait between polls of a service whose polls find no change and hear no write. */
    idlePollMs: number;
    /** Least time between two log lines about one (tenant, service)'s failing polls. */
    pollWarnMs: number;
    /** How long a service's events are kept for resumes once its last reader on the replica has left. */
    resumeWindowMs: number;
    /** Longest a stream stays open; the reader reconnects with Last-Event-ID (to any replica). */
    maxLifetimeMs: number;
  };
}

/** Forward proxies from the environment, as axios reads them: one per target scheme, and hosts that bypass them. */
export interface UpstreamProxy {
  http: string | null;
  https: string | null;
  /** NO_PROXY as written: host names, `.suffix`es, `host:port`s or `*`, comma- or space-separated. */
  noProxy: string;
}

export interface AuditSinksConfig {
  /** `tcp://host:port` or `tls://host:port`; `ca`: the PEM of a private CA for tls (else the system's). */
  syslog: { url: string; ca: string | null } | null;
  /** May carry user-info or a query (never shown); `secret` keys the HMAC of each request. */
  webhook: { url: string; secret: string } | null;
  /** Most events per delivery (one syslog connection, one webhook request). */
  batchSize: number;
  /** How often a sink with nothing to send looks for new events. */
  intervalMs: number;
  /** A failed delivery is retried after retryMinMs, doubling up to retryMaxMs. */
  retryMinMs: number;
  retryMaxMs: number;
  /** Longest one delivery attempt may take. */
  timeoutMs: number;
  /** How long a replica's claim to ship a sink lasts unless renewed; another takes over after it. */
  leaseMs: number;
  /** A sink whose oldest undelivered event is older than this is warned about in the log. */
  lagWarnSeconds: number;
}

export interface OidcConfig {
  /** Exactly as configured: tokens' `iss` must equal it. */
  issuer: string;
  audience: string;
  groupsClaim: string;
  userClaim: string;
  /** The least time between two key-set fetches caused by tokens with an unknown `kid`. */
  jwksCooldownMs: number;
}

/** A bad setting: the message names the variable and what is wrong with it. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function value(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

/** A decimal fraction such as 0.5, from `min` to `max`. */
function fraction(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(
      name,
      `must be a fraction from ${min} to ${max} such as ${fallback} (got "${raw}")`,
    );
  }
  return Number(raw);
}

function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = value(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `must be an http(s) URL (got "${raw}")`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new ConfigError(name, 'must not carry credentials, a query or a fragment');
  }
  return url.toString().replace(/\/+$/, '');
}

function pathSegment(env: Env, name: string, fallback: string): string {
  const raw = value(env, name) ?? fallback;
  if (!/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(raw)) {
    throw new ConfigError(name, `must be one path segment of letters, digits, - and _ (got "${raw}")`);
  }
  return raw;
}

function flag(env: Env, name: string): boolean {
  const raw = value(env, name);
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ConfigError(name, `must be true or false (got "${raw}")`);
}

function list(env: Env, name: string): string[] {
  const raw = value(env, name);
  return raw === undefined
    ? []
    : raw
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
}

export function parseRateLimit(name: string, raw: string): RateLimit | null {
  if (raw === '0') return null;
  const match = /^(\d+)\/(\d+)(ms|s|m|h)$/.exec(raw);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
    throw new ConfigError(
      name,
      `must be written N/<duration> such as 600/60s, or 0 to turn it off (got "${raw}")`,
    );
  }
  return { limit: Number(match[1]), windowMs: Number(match[2]) * DURATION_UNITS_MS[match[3]] };
}

/** A duration written `<n>ms|s|m|h` (e.g. `15m`); `0` turns it off (null). */
function duration(env: Env, name: string, fallback: string): number | null {
  const raw = value(env, name) ?? fallback;
  if (raw === '0') return null;
  const match = /^(\d+)(ms|s|m|h)$/.exec(raw);
  const ms = match ? Number(match[1]) * DURATION_UNITS_MS[match[2]] : 0;
  if (ms < 1_000 || ms > 24 * 3_600_000) {
    throw new ConfigError(
      name,
      `must be a duration from 1s to 24h such as 15m or 1h, or 0 to turn it off (got "${raw}")`,
    );
  }
  return ms;
}

function rateLimit(env: Env, name: string, fallback: string): RateLimit | null {
  const raw = value(env, name) ?? fallback;
  const rule = parseRateLimit(name, raw);
  // Redis expires counters in whole seconds: a 500ms window there would never end.
  if (rule && value(env, 'REDIS_URL') !== undefined && rule.windowMs % 1000 !== 0) {
    throw new ConfigError(
      name,
      `must use a window of whole seconds when REDIS_URL is set, such as 10/1s (got "${raw}")`,
    );
  }
  return rule;
}

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: `false` (the default, the socket's peer is the client), a hop count, or a list of
 * proxy addresses and CIDR ranges. `true` means one hop, a single load balancer: trusting every
 * hop would let callers pick their own address by writing X-Forwarded-For.
 */
function trustProxy(env: Env): AppConfig['http']['trustProxy'] {
  const raw = value(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true') return 1;
  if (/^\d+$/.test(raw)) return integer(env, 'TRUST_PROXY', 0, 0, 10);
  return list(env, 'TRUST_PROXY').map((entry) => {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!PROXY_RANGE_NAMES.has(entry) && (family === 0 || !validBits || extra !== undefined)) {
      throw new ConfigError(
        'TRUST_PROXY',
        'must be false, true (one proxy), a hop count from 1 to 10, or a comma-separated list of proxy ' +
          `addresses and CIDR ranges such as 10.0.0.0/8 (got "${entry}")`,
      );
    }
    return entry;
  });
}

const CLAIM_NAME = /^[\x21-\x7e]{1,200}$/;

function claimName(env: Env, name: string, fallback: string): string {
  const raw = value(env, name) ?? fallback;
  if (!CLAIM_NAME.test(raw)) {
    throw new ConfigError(name, `must be a claim name of printable characters without spaces (got "${raw}")`);
  }
  return raw;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function oidc(env: Env, production: boolean): OidcConfig | null {
  const issuer = value(env, 'OIDC_ISSUER');
  const audience = value(env, 'OIDC_AUDIENCE');
  if (issuer === undefined) {
    if (audience !== undefined) throw new ConfigError('OIDC_AUDIENCE', 'is set but OIDC_ISSUER is not');
    return null;
  }
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ConfigError('OIDC_ISSUER', `must be the issuer's absolute https URL (got "${issuer}")`);
  }
  const localHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && !production;
  if (url.protocol !== 'https:' && !localHttp) {
    throw new ConfigError(
      'OIDC_ISSUER',
      'must be an https URL (plain http only on loopback, outside production)',
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new ConfigError('OIDC_ISSUER', 'must not carry credentials, a query or a fragment');
  }
  if (audience === undefined) {
    throw new ConfigError(
      'OIDC_AUDIENCE',
      'must be set when OIDC_ISSUER is (the audience tokens are issued for)',
    );
  }
  return {
    issuer,
    audience,
    groupsClaim: claimName(env, 'OIDC_GROUPS_CLAIM', 'groups'),
    userClaim: claimName(env, 'OIDC_USER_CLAIM', 'email'),
    jwksCooldownMs: integer(env, 'OIDC_JWKS_COOLDOWN_MS', 60_000, 1_000, 3_600_000),
  };
}

/** `host`, `host:port`, `[v6]`, `[v6]:port` (a bare IPv6 address gets its brackets), lower case. */
function hostList(env: Env, name: string): string[] {
  return list(env, name).map((entry) => {
    const lower = entry.toLowerCase();
    if (isIP(lower) === 6) return `[${lower}]`;
    const match = /^(\[([0-9a-f:.]+)\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(lower);
    const port = match?.[3] === undefined ? null : Number(match[3]);
    if (
      !match ||
      (match[2] !== undefined && isIP(match[2]) !== 6) ||
      (port !== null && (port < 1 || port > 65535))
    ) {
      throw new ConfigError(
        name,
        `must be a comma-separated list of host or host:port entries (got "${entry}")`,
      );
    }
    return lower;
  });
}

/**
 * The proxy for one target scheme as axios finds it: `<scheme>_proxy`, then `ALL_PROXY`, lower
 * case before upper case. The value may carry a password, so an error never repeats it.
 */
function proxyUrl(env: Env, scheme: 'http' | 'https'): string | null {
  const name = [`${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`, 'all_proxy', 'ALL_PROXY'].find(
    (candidate) => value(env, candidate) !== undefined,
  );
  if (name === undefined) return null;
  const raw = value(env, name)!;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname.length > 1 ||
    url.search
  ) {
    throw new ConfigError(name, 'must be a proxy URL such as http://proxy.internal:3128');
  }
  return raw;
}

function origins(env: Env, name: string): string[] {
  return list(env, name).map((origin) => {
    if (origin === '*') throw new ConfigError(name, 'must list origins explicitly; "*" is not allowed');
    try {
      return new URL(origin).origin;
    } catch {
      throw new ConfigError(
        name,
        `must be a comma-separated list of origins such as https://app.example.com (got "${origin}")`,
      );
    }
  });
}

/** CONSOLE_OIDC_CLIENT_ID: a printable client id, meaningful only with an issuer to sign in at. */
function consoleClientId(env: Env): string | null {
  const raw = value(env, 'CONSOLE_OIDC_CLIENT_ID');
  if (raw === undefined) return null;
  if (value(env, 'OIDC_ISSUER') === undefined) {
    throw new ConfigError(
      'CONSOLE_OIDC_CLIENT_ID',
      'is set but OIDC_ISSUER is not (the console signs in there)',
    );
  }
  if (!/^[\x21-\x7e]{1,255}$/.test(raw)) {
    throw new ConfigError(
      'CONSOLE_OIDC_CLIENT_ID',
      `must be the client id the issuer gave the console: printable characters without spaces, at most 255 (got "${raw}")`,
    );
  }
  return raw;
}

/** A PEM certificate given as its text or as the path of a file holding it. */
function pemCertificate(env: Env, name: string): string | null {
  const raw = value(env, name);
  if (raw === undefined) return null;
  let pem = raw;
  if (!raw.includes('-----BEGIN')) {
    try {
      pem = readFileSync(raw, 'utf8');
    } catch {
      throw new ConfigError(name, `must be PEM text or the path of a readable PEM file (got "${raw}")`);
    }
  }
  try {
    new X509Certificate(pem);
  } catch {
    throw new ConfigError(name, 'must hold a PEM certificate (-----BEGIN CERTIFICATE-----)');
  }
  return pem;
}

function auditSyslog(env: Env): AuditSinksConfig['syslog'] {
  const raw = value(env, 'AUDIT_SYSLOG_URL');
  const ca = pemCertificate(env, 'AUDIT_SYSLOG_CA');
  if (raw === undefined) {
    if (ca !== null) throw new ConfigError('AUDIT_SYSLOG_CA', 'is set but AUDIT_SYSLOG_URL is not');
    return null;
  }
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (
    !url ||
    (url.protocol !== 'tcp:' && url.protocol !== 'tls:') ||
    !url.hostname ||
    !url.port ||
    url.username ||
    url.password ||
    (url.pathname !== '' && url.pathname !== '/') ||
    url.search ||
    url.hash
  ) {
    throw new ConfigError(
      'AUDIT_SYSLOG_URL',
      `must be tcp://host:port or tls://host:port such as tls://siem.internal:6514 (got "${raw}")`,
    );
  }
  if (ca !== null && url.protocol !== 'tls:') {
    throw new ConfigError('AUDIT_SYSLOG_CA', 'is set but AUDIT_SYSLOG_URL is not a tls:// URL');
  }
  return { url: `${url.protocol}//${url.host}`, ca };
}

/** AUDIT_WEBHOOK_URL: https; plain http only to loopback or outside production. Never repeated in an error. */
function auditWebhook(env: Env, production: boolean): AuditSinksConfig['webhook'] {
  const raw = value(env, 'AUDIT_WEBHOOK_URL');
  const secret = value(env, 'AUDIT_WEBHOOK_SECRET');
  if (raw === undefined) {
    if (secret !== undefined)
      throw new ConfigError('AUDIT_WEBHOOK_SECRET', 'is set but AUDIT_WEBHOOK_URL is not');
    return null;
  }
  const url = URL.canParse(raw) ? new URL(raw) : null;
  const plainAllowed = url?.protocol === 'http:' && (LOOPBACK_HOSTS.has(url.hostname) || !production);
  if (!url || (url.protocol !== 'https:' && !plainAllowed) || url.hash) {
    throw new ConfigError(
      'AUDIT_WEBHOOK_URL',
      'must be an https URL without a fragment (plain http only to loopback, or outside production)',
    );
  }
  if (secret === undefined || secret.length < 32) {
    throw new ConfigError(
      'AUDIT_WEBHOOK_SECRET',
      'must be set, at least 32 characters, when AUDIT_WEBHOOK_URL is',
    );
  }
  return { url: url.toString(), secret };
}

function auditSinks(env: Env, production: boolean): AuditSinksConfig {
  const retryMinMs = integer(env, 'AUDIT_SINK_RETRY_MIN_MS', 1_000, 10, 600_000);
  return {
    syslog: auditSyslog(env),
    webhook: auditWebhook(env, production),
    batchSize: integer(env, 'AUDIT_SINK_BATCH_SIZE', 500, 1, 10_000),
    intervalMs: integer(env, 'AUDIT_SINK_INTERVAL_MS', 500, 10, 600_000),
    retryMinMs,
    retryMaxMs: integer(env, 'AUDIT_SINK_RETRY_MAX_MS', Math.max(60_000, retryMinMs), retryMinMs, 3_600_000),
    timeoutMs: integer(env, 'AUDIT_SINK_TIMEOUT_MS', 10_000, 100, 600_000),
    leaseMs: integer(env, 'AUDIT_SINK_LEASE_MS', 30_000, 1_000, 3_600_000),
    lagWarnSeconds: integer(env, 'AUDIT_SINK_LAG_WARN_SECONDS', 300, 1, 604_800),
  };
}

function readCacheMs(env: Env): number | null {
  const raw = value(env, 'PIPE_READ_CACHE_MS');
  if (raw === undefined) return 2_000;
  if (raw === 'off') return null;
  if (!/^\d+$/.test(raw) || Number(raw) > 60_000) {
    throw new ConfigError(
      'PIPE_READ_CACHE_MS',
      `must be a whole number from 0 to 60000, or off (got "${raw}")`,
    );
  }
  return Number(raw);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env): AppConfig {
  const nodeEnv = value(env, 'NODE_ENV') ?? 'development';
  if (nodeEnv !== 'development' && nodeEnv !== 'production' && nodeEnv !== 'test') {
    throw new ConfigError('NODE_ENV', `must be development, production or test (got "${nodeEnv}")`);
  }

  const logLevel = value(env, 'LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }

  const databaseUrl = value(env, 'DATABASE_URL') ?? null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must be a postgres:// or postgresql:// connection string');
  }

  const adminToken = value(env, 'GATEWAY_ADMIN_TOKEN') ?? null;
  if (adminToken !== null && adminToken.length < 32) {
    throw new ConfigError('GATEWAY_ADMIN_TOKEN', 'must be at least 32 characters long');
  }

  const redisUrl = value(env, 'REDIS_URL') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', 'must be a redis:// or rediss:// URL');
  }

  const pipesApiLimit = rateLimit(env, 'PIPES_API_RATE_LIMIT', '10/10s');
  const retentionDays = value(env, 'AUDIT_RETENTION_DAYS');
  // Writes in flight are rate × latency: 500 writes/s against an upstream answering in 300 ms hold
  // 150 slots, and a pause of a tenth of a second on a fast one holds 50 more.
  const maxWritesInFlight = integer(env, 'MAX_WRITES_IN_FLIGHT', 256, 1, 100_000);

  return {
    env: nodeEnv,
    http: {
      port: integer(env, 'PORT', 3000, 0, 65535),
      host: value(env, 'HOST') ?? '0.0.0.0',
      bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
      corsOrigins: origins(env, 'CORS_ORIGINS'),
      trustProxy: trustProxy(env),
      ...clientTimeouts(env),
      shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_MS', 5_000, 0, 600_000),
    },
    database: {
      url: databaseUrl,
      dataDir: value(env, 'DATA_DIR') ?? './data',
      queryTimeoutMs: integer(env, 'DATABASE_QUERY_TIMEOUT_MS', 5_000, 100, 600_000),
    },
    logLevel: logLevel as AppConfig['logLevel'],
    adminToken,
    encryptionKeys: value(env, 'GATEWAY_ENCRYPTION_KEYS') ?? null,
    auditChainKeys: value(env, 'AUDIT_CHAIN_KEYS') ?? null,
    auditSigningKeys: value(env, 'AUDIT_SIGNING_KEYS') ?? null,
    upstream: {
      pipesApiUrl: httpUrl(env, 'PIPES_API_URL', 'https://api.clickhouse.cloud'),
      pipesApiResource: pathSegment(env, 'PIPES_API_RESOURCE', 'pipes'),
      dashboardsApiUrl: httpUrl(env, 'DASHBOARDS_API_URL', 'https://api.hyperdx.io'),
      dashboardsAllowedHosts: hostList(env, 'DASHBOARDS_ALLOWED_HOSTS'),
      timeoutMs: integer(env, 'UPSTREAM_TIMEOUT_MS', 10_000, 100, 300_000),
      maxAnswerBytes: integer(env, 'UPSTREAM_MAX_ANSWER_BYTES', 4 * 1024 * 1024, 1024, 256 * 1024 * 1024),
      proxy: {
        http: proxyUrl(env, 'http'),
        https: proxyUrl(env, 'https'),
        noProxy: value(env, 'no_proxy') ?? value(env, 'NO_PROXY') ?? '',
      },
      allowInsecureUpstreams: flag(env, 'SANDBOX') && nodeEnv !== 'production',
    },
    oidc: oidc(env, nodeEnv === 'production'),
    console: { oidcClientId: consoleClientId(env) },
    redisUrl,
    rateLimits: {
      perKey: rateLimit(env, 'RATE_LIMIT_PER_KEY', '600/60s'),
      perTenant: rateLimit(env, 'RATE_LIMIT_PER_TENANT', '3000/60s'),
      failedAuth: rateLimit(env, 'RATE_LIMIT_FAILED_AUTH', '30/60s'),
      pipesApi: pipesApiLimit,
      dashboardsApi: rateLimit(env, 'DASHBOARDS_API_RATE_LIMIT', '100/60s'),
      valueEchoes: rateLimit(env, 'VAULT_VALUE_ECHO_LIMIT', '5/1h'),
    },
    upstreamBudget: {
      writeReserve: fraction(env, 'UPSTREAM_WRITE_RESERVE', 0.5, 0, 0.9),
      callerReadShare: fraction(env, 'UPSTREAM_CALLER_READ_SHARE', 0.2, 0.01, 1),
    },
    maxWritesInFlight,
    tenantWriteShare: integer(
      env,
      'TENANT_WRITE_SHARE',
      Math.max(1, Math.floor(maxWritesInFlight / 8)),
      1,
      maxWritesInFlight,
    ),
    auditRetentionDays:
      retentionDays === undefined ? null : integer(env, 'AUDIT_RETENTION_DAYS', 0, 1, 36_500),
    auditCheckpointIntervalMs: duration(env, 'AUDIT_CHECKPOINT_INTERVAL', '1h'),
    auditSinks: auditSinks(env, nodeEnv === 'production'),
    pipeReads: { cacheMs: readCacheMs(env) },
    pipeEvents: {
      ...pipeEventPolls(env, pollInterval(env, pipesApiLimit)),
      heartbeatMs: integer(env, 'PIPE_STREAM_HEARTBEAT_MS', 15_000, 1_000, 300_000),
      recheckMs: integer(env, 'PIPE_STREAM_RECHECK_MS', 30_000, 1_000, 3_600_000),
      perKey: integer(env, 'PIPE_STREAMS_PER_KEY', 10, 1, 100_000),
      perTenant: integer(env, 'PIPE_STREAMS_PER_TENANT', 2_000, 1, 1_000_000),
      maxBufferBytes: integer(env, 'PIPE_STREAM_MAX_BUFFER_BYTES', 256 * 1024, 1024, 64 * 1024 * 1024),
      replay: integer(env, 'PIPE_EVENTS_REPLAY', 256, 1, 100_000),
      ...keptEventBytes(env),
      resumeWindowMs: integer(env, 'PIPE_EVENTS_RESUME_MS', 600_000, 1_000, 86_400_000),
      maxLifetimeMs: integer(env, 'PIPE_STREAM_MAX_MS', 3_600_000, 100, 86_400_000),
    },
  };
}

/** How long a client may take to send headers, and a whole request (never less than its headers). */
function clientTimeouts(env: Env): Pick<AppConfig['http'], 'headersTimeoutMs' | 'requestTimeoutMs'> {
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const fallback = Math.max(30_000, headersTimeoutMs);
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', fallback, 100, 3_600_000);
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError(
      'REQUEST_TIMEOUT_MS',
      `must be at least HEADERS_TIMEOUT_MS (${headersTimeoutMs}) (got "${requestTimeoutMs}")`,
    );
  }
  return { headersTimeoutMs, requestTimeoutMs };
}

/** The poll interval, the longest one it backs off to (8 times it unless set), and the failed-poll log interval. */
function pipeEventPolls(
  env: Env,
  pollMs: number,
): Pick<AppConfig['pipeEvents'], 'pollMs' | 'idlePollMs' | 'pollWarnMs'> {
  const idlePollMs = integer(env, 'PIPE_EVENTS_IDLE_POLL_MS', Math.min(8 * pollMs, 600_000), 500, 3_600_000);
  if (idlePollMs < pollMs) {
    throw new ConfigError(
      'PIPE_EVENTS_IDLE_POLL_MS',
      `must be at least PIPE_EVENTS_POLL_MS (${pollMs}) (got "${idlePollMs}")`,
    );
  }
  return {
    pollMs,
    idlePollMs,
    pollWarnMs: integer(env, 'PIPE_EVENTS_POLL_WARN_MS', 60_000, 1_000, 86_400_000),
  };
}

/** PIPE_EVENTS_KEPT_BYTES_PER_SERVICE and PIPE_EVENTS_KEPT_BYTES: a service's share is at most the whole. */
function keptEventBytes(env: Env): Pick<AppConfig['pipeEvents'], 'keptBytesPerService' | 'keptBytes'> {
  const MiB = 1024 * 1024;
  const keptBytes = integer(env, 'PIPE_EVENTS_KEPT_BYTES', 64 * MiB, 64 * 1024, 64 * 1024 * MiB);
  const keptBytesPerService = integer(
    env,
    'PIPE_EVENTS_KEPT_BYTES_PER_SERVICE',
    Math.min(MiB, keptBytes),
    1024,
    keptBytes,
  );
  return { keptBytesPerService, keptBytes };
}

/**
 * PIPE_EVENTS_POLL_MS: the poller of a service may spend at most half its credential's pipes API
 * budget, leaving the rest to callers' reads and writes. Unset, it is 2 s or, with a tighter
 * budget, the least interval that budget allows.
 */
function pollInterval(env: Env, budget: RateLimit | null): number {
  const least = budget === null ? 0 : Math.ceil((2 * budget.windowMs) / budget.limit);
  if (value(env, 'PIPE_EVENTS_POLL_MS') === undefined) return Math.min(Math.max(2_000, least), 600_000);
  const pollMs = integer(env, 'PIPE_EVENTS_POLL_MS', 2_000, 500, 600_000);
  if (pollMs < least) {
    throw new ConfigError(
      'PIPE_EVENTS_POLL_MS',
      `must be at least ${least} with PIPES_API_RATE_LIMIT at ${budget!.limit}/${budget!.windowMs}ms: ` +
        `polling may spend at most half the budget (got "${pollMs}")`,
    );
  }
  return pollMs;
}
