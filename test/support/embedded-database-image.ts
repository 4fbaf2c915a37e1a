import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgliteSession } from '../../src/database/database-connection';
import { applyMigrations } from '../../src/database/migrator';

/**
 * Every in-memory test gateway starts from one image of a migrated embedded database, built once a
 * run by jest's global set-up, instead of running initdb and every migration itself.
 */
const IMAGE_PATH_VARIABLE = 'TEST_EMBEDDED_DATABASE_IMAGE';

/** jest globalSetup: builds the image, and names it to the workers through the environment. */
export async function buildEmbeddedDatabaseImage(): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = new PGlite('memory://');
  try {
    await applyMigrations({ withLock: (_lockId, work) => work(pgliteSession(pglite)) });
    // No gateway creates a database: without the two templates, the image every test gateway
    // unpacks on start is a third smaller.
    for (const template of ['template0', 'template1']) {
      await pglite.exec(`ALTER DATABASE ${template} IS_TEMPLATE false`);
      await pglite.exec(`DROP DATABASE ${template}`);
    }
    await pglite.exec('CHECKPOINT');
    const image = await pglite.dumpDataDir('none');
    const path = join(tmpdir(), `pipes-gateway-test-database-${process.pid}.tar`);
    writeFileSync(path, Buffer.from(await image.arrayBuffer()));
    process.env[IMAGE_PATH_VARIABLE] = path;
  } finally {
    await pglite.close();
  }
}

/** jest globalTeardown. */
export function removeEmbeddedDatabaseImage(): void {
  const path = process.env[IMAGE_PATH_VARIABLE];
  if (path) rmSync(path, { force: true });
}

let image: Blob | undefined;

/** The run's image, read once per test file; none when the run was started without the set-up. */
export function embeddedDatabaseImage(): Blob | undefined {
  const path = process.env[IMAGE_PATH_VARIABLE];
  if (path && !image) image = new Blob([readFileSync(path)]);
  return image;
}
