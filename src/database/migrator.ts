import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DatabaseConnection, SqlSession } from './database-connection';

/** Arbitrary constant shared by every replica, so only one applies migrations at a time. */
export const MIGRATION_LOCK_ID = 727_310_001;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** Reads Prisma's folder format: prisma/migrations/<timestamp>_<name>/migration.sql, in name order. */
export function readMigrations(dir = migrationsDir()): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

function migrationsDir(): string {
  // Sources run from src/database, compiled code from dist/src/database.
  const candidates = [
    resolve(__dirname, '..', '..', 'prisma', 'migrations'),
    resolve(__dirname, '..', '..', '..', 'prisma', 'migrations'),
  ];
  const found = candidates.find((dir) => existsSync(dir));
  if (!found) throw new Error(`migrations folder not found (looked in ${candidates.join(', ')})`);
  return found;
}

// The same table Prisma Migrate keeps, so `prisma migrate status/deploy` agree with this runner.
const MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/**
 * Applies pending migrations, each in its own transaction, under an advisory lock so that
 * replicas starting together do not race. Returns the names it applied.
 */
export async function applyMigrations(
  connection: Pick<DatabaseConnection, 'withLock'>,
  migrations: Migration[] = readMigrations(),
): Promise<string[]> {
  return connection.withLock(MIGRATION_LOCK_ID, async (session) => {
    await session.exec(MIGRATIONS_TABLE);
    const applied = await appliedMigrations(session);
    const pending: Migration[] = [];
    for (const migration of migrations) {
      const row = applied.get(migration.name);
      if (!row) {
        pending.push(migration);
      } else if (row.finished_at === null) {
        throw new MigrationError(
          `migration ${migration.name} started earlier but never finished; inspect the database, then mark it rolled back`,
        );
      } else if (row.checksum !== migration.checksum) {
        throw new MigrationError(
          `migration ${migration.name} was edited after it was applied (checksum differs)`,
        );
      }
    }
    for (const migration of pending) {
      await applyOne(session, migration);
    }
    return pending.map((migration) => migration.name);
  });
}

async function appliedMigrations(session: SqlSession): Promise<Map<string, AppliedRow>> {
  const rows = await session.query<AppliedRow>(
    'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
  );
  return new Map(rows.map((row) => [row.migration_name, row]));
}

async function applyOne(session: SqlSession, migration: Migration): Promise<void> {
  await session.exec('BEGIN');
  try {
    await session.exec(migration.sql);
    await session.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), now(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await session.exec('COMMIT');
  } catch (error) {
    await session.exec('ROLLBACK');
    throw new MigrationError(`migration ${migration.name} failed: ${(error as Error).message}`);
  }
}
