import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PGlite as PGliteInstance } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { Pool } from 'pg';
import { KeyedLimiter } from '../common/limiter';
import { lockDataDir } from './data-dir-lock';

/**
 * One database, reachable two ways: through Prisma (the adapter) for the application, and
 * directly for what Prisma cannot do (multi-statement migration scripts, session locks).
 */
export interface DatabaseConnection {
  readonly kind: 'postgres' | 'embedded';
  /** Where it is, for people: a Postgres URL without its password, or the embedded data folder. */
  readonly description: string;
  readonly adapter: SqlDriverAdapterFactory;
  /** Connection pool occupancy, for metrics; null for the embedded database. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /** Runs `work` on one session while holding a database-wide advisory lock. */
  withLock<T>(lockId: number, work: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * Runs one statement on a pooled session, past Prisma, whose raw queries copy every parameter
   * and round-trip it through JSON: for statements that carry large texts often (audit appends
   * with their specs and answers). Null for the embedded database, whose one session Prisma's
   * transactions take in turn: a statement sent past Prisma could land inside one. `prepared`: the
   * text is one of few sent often, so each session parses it once and Postgres may keep its plan.
   */
  query: (<Row>(text: string, values: unknown[], options?: { prepared?: boolean }) => Promise<Row[]>) | null;
  close(): Promise<void>;
}

export interface SqlSession {
  /** Runs a script that may hold several statements. */
  exec(sql: string): Promise<void>;
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
}

/** A Postgres URL fit for logs: the password replaced. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres (unparseable URL)';
  }
}

export interface PostgresOptions {
  poolSize?: number;
  /**
   * Longest a statement of the application may run (Postgres cancels it) or go unanswered (the
   * client gives up, for a server that stopped answering without closing the connection).
   */
  queryTimeoutMs?: number;
}

// How long a request may wait for a pooled connection, or for a new one to open.
const CONNECT_TIMEOUT_MS = 5_000;
// The client waits this much longer than the server's own limit, which cancels cleanly.
const UNANSWERED_GRACE_MS = 1_000;
// Every session keeps each text it prepared, with its plans, until it closes (docs/operations.md).
const MAX_PREPARED_TEXTS = 32;

/** Names for prepared texts, the same on every session; past `max` texts, a text goes unnamed. */
export class PreparedNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly max: number) {}

  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.max) {
      name = `prepared_${this.names.size + 1}`;
      this.names.set(text, name);
    }
    return name;
  }
}

export function connectPostgres(url: string, options: PostgresOptions = {}): DatabaseConnection {
  const { poolSize = 10, queryTimeoutMs = 5_000 } = options;
  const pool = new Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: queryTimeoutMs,
    query_timeout: queryTimeoutMs + UNANSWERED_GRACE_MS,
    keepAlive: true,
  });
  // Migrations run on their own sessions, under an advisory lock that replicas starting together
  // wait for, and may take far longer than any statement of a request: no statement timeout there.
  const lockPool = new Pool({
    connectionString: url,
    max: 2,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle client that loses its server emits 'error'; without a listener the process dies.
  for (const each of [pool, lockPool]) each.on('error', () => undefined);
  const preparedNames = new PreparedNames(MAX_PREPARED_TEXTS);
  // Waiters for one lock queue here rather than on a session each.
  const queue = new KeyedLimiter<number>(1);
  return {
    kind: 'postgres',
    description: describePostgresUrl(url),
    adapter: new PrismaPg(pool),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    query: async <Row>(text: string, values: unknown[], { prepared = false } = {}) => {
      const name = prepared ? preparedNames.nameOf(text) : undefined;
      return (await pool.query({ text, values, name })).rows as Row[];
    },
    async withLock(lockId, work) {
      return queue.run(lockId, async () => {
        const client = await lockPool.connect();
        // Only a session whose unlock went through is reused: a failed one may still hold the lock.
        let unlocked = false;
        try {
          await client.query('SELECT pg_advisory_lock($1)', [lockId]);
          try {
            return await work({
              exec: async (sql) => {
                await client.query(sql);
              },
              query: async <Row>(sql: string, params?: unknown[]) =>
                (await client.query(sql, params)).rows as Row[],
            });
          } finally {
            await client.query('SELECT pg_advisory_unlock($1)', [lockId]);
            unlocked = true;
          }
        } finally {
          client.release(unlocked ? undefined : true);
        }
      });
    },
    close: async () => {
      await Promise.all([pool.end(), lockPool.end()]);
    },
  };
}

const EMBEDDED_SHARED_BUFFERS = '16MB';

/**
 * Embedded Postgres (PGlite, in process). `dataDir` is a folder, or `memory://` for a database
 * that lives only as long as the process (tests). A folder is locked for this process while it is
 * open (lockDataDir): a second process is refused at once, naming this one.
 *
 * `image` is a dump of a migrated database to start from when there is no database yet, in memory
 * or in the folder (tests start many).
 *
 * PGlite and its adapter are loaded here, not at the top of the file: a gateway on Postgres would
 * otherwise carry them in its RSS for nothing.
 */
export async function connectEmbedded(dataDir: string, image?: Blob): Promise<DatabaseConnection> {
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('pglite-prisma-adapter'),
  ]);
  const inMemory = dataDir.startsWith('memory://');
  const location = inMemory ? dataDir : resolve(dataDir, 'pglite');
  if (!inMemory) mkdirSync(location, { recursive: true });
  // Two processes on one folder corrupt it, and each loses what the other wrote: one at a time.
  const unlock = inMemory ? () => undefined : await lockDataDir(resolve(dataDir));
  // An image (PGlite's dumpDataDir) of a migrated database spares a new one initdb and the
  // migrations: most of what starting a test gateway costs.
  const fresh = inMemory || !existsSync(join(location, 'PG_VERSION'));
  const pglite = new PGlite(location, {
    // A development database: Postgres's default 128 MB buffer pool would be memory the process
    // holds (and clears on every start) for data that fits in a fraction of it.
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
    ...(fresh && image ? { loadDataDir: image } : {}),
  });
  // One process owns the embedded database, so locks only need to queue work in this process.
  const queue = new KeyedLimiter<number>(1);
  return {
    kind: 'embedded',
    description: inMemory ? 'embedded (in memory)' : `embedded (${location})`,
    adapter: new PrismaPGlite(pglite),
    poolStats: () => null,
    query: null,
    async withLock(lockId, work) {
      await pglite.waitReady;
      return queue.run(lockId, () => work(pgliteSession(pglite)));
    },
    close: async () => {
      try {
        await pglite.close();
      } finally {
        unlock();
      }
    },
  };
}

/** A session on an embedded database: PGlite runs one statement at a time on its one connection. */
export function pgliteSession(pglite: Pick<PGliteInstance, 'exec' | 'query'>): SqlSession {
  return {
    exec: async (sql) => {
      await pglite.exec(sql);
    },
    query: async <Row>(sql: string, params?: unknown[]) => (await pglite.query<Row>(sql, params)).rows,
  };
}
