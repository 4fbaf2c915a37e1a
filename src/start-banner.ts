import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { AppConfig } from './config/app-config';
import type { TracingSettings } from './tracing/tracing-settings';
import { upstreamAddress } from './upstream/upstream-errors';

/**
 * What `npm start` prints once the gateway listens: where it is and its docs, which database and
 * upstreams it uses (never a password or a path), which ways in are open, and where traces go.
 */
export function startBanner(config: AppConfig, base: string, tracing: TracingSettings | null = null): string {
  const rows: [string, string][] = [
    ['docs', `${base}/docs (OpenAPI document: ${base}/docs-json)`],
    ['database', describeDatabase(config.database)],
    ['pipes', `${upstreamAddress(config.upstream.pipesApiUrl)} (PIPES_API_URL)`],
    ['dashboards', `${upstreamAddress(config.upstream.dashboardsApiUrl)} (DASHBOARDS_API_URL)`],
    [
      'admin',
      config.adminToken
        ? 'platform routes /v1/admin open to the GATEWAY_ADMIN_TOKEN bearer'
        : 'platform routes /v1/admin closed (GATEWAY_ADMIN_TOKEN is not set; the CLI still works)',
    ],
    [
      'sign-in',
      config.oidc
        ? `OIDC tokens from ${config.oidc.issuer} for audience ${config.oidc.audience}, beside gateway keys`
        : 'gateway keys only (OIDC_ISSUER is not set)',
    ],
    [
      'tracing',
      tracing
        ? `OTLP ${tracing.protocol} to ${upstreamAddress(tracing.endpoint)} (${tracing.endpointVariable})`
        : 'off (OTEL_EXPORTER_OTLP_ENDPOINT is not set, or OTEL_SDK_DISABLED is true)',
    ],
    [
      'console',
      config.console.oidcClientId
        ? `${base}/console/ (people sign in at the issuer as client ${config.console.oidcClientId})`
        : `${base}/console/ (takes a pasted gateway key: CONSOLE_OIDC_CLIENT_ID is not set)`,
    ],
  ];
  return [
    `pipes-gateway listening on ${base}`,
    ...rows.map(([name, value]) => `  ${`${name}:`.padEnd(12)}${value}`),
  ].join('\n');
}

/** The embedded database's folder, or the Postgres server, database and user: no password, no options. */
export function describeDatabase(database: Pick<AppConfig['database'], 'url' | 'dataDir'>): string {
  if (database.url === null) {
    return database.dataDir.startsWith('memory://')
      ? 'embedded, in memory (gone when the process stops)'
      : `embedded, in ${resolve(database.dataDir, 'pglite')} (DATABASE_URL is not set)`;
  }
  try {
    const url = new URL(database.url);
    const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || '(default database)';
    const user = url.username ? ` as ${decodeURIComponent(url.username)}` : '';
    return `Postgres ${name} on ${url.host}${user}`;
  } catch {
    return 'Postgres (DATABASE_URL is not a URL this banner can read)';
  }
}

/**
 * The address a listening server is reached at: its actual port (PORT=0 picks one), and localhost
 * when it listens on every interface.
 */
export function listeningBase(server: { address(): AddressInfo | string | null }, host: string): string {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}
