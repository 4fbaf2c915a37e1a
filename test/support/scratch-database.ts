import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { postgresConfigured } from './skip';

// The run's prefix for the databases it makes (TEST_DATABASE_PREFIX), checked as npm test checks it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { testDatabasePrefix } = require('../../scripts/run-tests.js') as {
  testDatabasePrefix(env: NodeJS.ProcessEnv): string;
};

export interface ScratchDatabase {
  /** Gateway settings that point at this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * A database of the test's own that outlives one gateway instance: a new Postgres database on
 * the run's server when DATABASE_URL is set, else an embedded database in a temporary folder.
 * For tests whose assertions cover every row (key rotation, retention), not just their tenant's.
 */
export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL;
  if (!postgresConfigured() || !adminUrl) {
    const dir = mkdtempSync(join(tmpdir(), 'pgw-scratch-'));
    return {
      env: { DATA_DIR: dir, DATABASE_URL: '' },
      drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
    };
  }
  const name = `${testDatabasePrefix(process.env)}_scratch_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}
