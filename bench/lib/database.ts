import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { productionLaunch } from './processes';
import { generateSigningKeyText } from '../../src/crypto/audit-signing-keys';

/** The server the benchmark databases are created on; BENCH_DATABASE_URL overrides it. */
export const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether that server runs on this machine (loopback or a local socket), so its processes can be measured. */
export const SERVER_IS_LOCAL = ['', 'localhost', '127.0.0.1', '[::1]'].includes(new URL(SERVER_URL).hostname);

/** A new, empty database for one run; drop() removes it, connections and all. */
export async function freshDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${process.pid}`;
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: SERVER_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** How many audit events the database holds, every tenant's. */
export async function countAuditEvents(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM audit_events');
    return rows[0].count;
  } finally {
    await client.end();
  }
}

// One set of keys per run: its gateways share the database, and each proves its keys against it.
const RUN_KEYS = {
  GATEWAY_ENCRYPTION_KEYS: `v1:${randomBytes(32).toString('base64')}`,
  AUDIT_CHAIN_KEYS: `v1:${randomBytes(32).toString('base64')}`,
  AUDIT_SIGNING_KEYS: generateSigningKeyText('bench'),
};

/**
 * The environment every benchmark gateway runs with: the settings of start:prod, and limits off so
 * they do not shape the load.
 */
export function gatewayEnv(
  databaseUrl: string,
  logLevel: string,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  return {
    ...productionLaunch().env,
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    ...RUN_KEYS,
    LOG_LEVEL: logLevel,
    RATE_LIMIT_PER_KEY: '0',
    RATE_LIMIT_PER_TENANT: '0',
    PIPES_API_RATE_LIMIT: '0',
    DASHBOARDS_API_RATE_LIMIT: '0',
    // The read scenarios measure the proxied read, not the pipe read cache (bench:live does).
    PIPE_READ_CACHE_MS: '0',
    ...extra,
  };
}
