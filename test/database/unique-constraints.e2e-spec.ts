/**
 * docs/architecture.md lists every unique constraint of the schema and what a request that loses
 * a race for it gets; the constraints callers can race for are those src/database/unique-constraints.ts
 * names, which the gateway must recognise on both databases. A new unique constraint fails here
 * until it is listed, and the races for each one a caller can reach are in test/unique-races.e2e-spec.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectEmbedded, type DatabaseConnection } from '../../src/database/database-connection';
import { applyMigrations } from '../../src/database/migrator';
import { UNIQUE } from '../../src/database/unique-constraints';
import { embeddedDatabaseImage } from '../support/embedded-database-image';

interface ListedConstraint {
  columns: string[];
  loser: string;
}

/** The table of docs/architecture.md's "Unique values and races", by constraint. */
function listedConstraints(): Map<string, ListedConstraint> {
  const docs = readFileSync(join(__dirname, '..', '..', 'docs', 'architecture.md'), 'utf8');
  const section = docs.split('## Unique values and races')[1].split('\n## ')[0];
  const listed = new Map<string, ListedConstraint>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length !== 5 || !cells[1].startsWith('`')) continue;
    const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    listed.set(names(cells[1])[0], { columns: names(cells[2]), loser: cells[3] });
  }
  return listed;
}

describe('unique constraints', () => {
  let database: DatabaseConnection;
  let actual: Map<string, string[]>;

  beforeAll(async () => {
    // The run's image holds the migrations applied, and applying them finds nothing left to do; in a
    // run started without jest's global set-up there is no image, and they are applied here.
    database = await connectEmbedded('memory://', embeddedDatabaseImage());
    await applyMigrations(database);
    const rows = await database.withLock(0, (session) =>
      session.query<{ name: string; columns: string[] }>(`
        SELECT i.relname AS name, array_agg(a.attname::text ORDER BY k.position) AS columns
        FROM pg_index x
        JOIN pg_class i ON i.oid = x.indexrelid
        JOIN pg_class t ON t.oid = x.indrelid
        JOIN pg_namespace n ON n.oid = t.relnamespace
        CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, position)
        JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
        WHERE x.indisunique AND n.nspname = 'public' AND t.relname <> '_prisma_migrations'
        GROUP BY i.relname`),
    );
    actual = new Map(rows.map((row) => [row.name, row.columns]));
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  it('are each listed in docs/architecture.md with their columns', () => {
    const listed = listedConstraints();
    expect(Object.fromEntries([...listed].map(([name, { columns }]) => [name, columns]))).toEqual(
      Object.fromEntries(actual),
    );
  });

  it('that a caller can race for are recognised by their name and columns, and answered 409', () => {
    const answered409 = [...listedConstraints()]
      .filter(([, { loser }]) => loser.startsWith('409 '))
      .map(([name]) => name);
    const recognised = Object.values(UNIQUE);
    expect(recognised.map((constraint) => constraint.name).sort()).toEqual(answered409.sort());
    for (const constraint of recognised) {
      expect({ name: constraint.name, columns: actual.get(constraint.name) }).toEqual(constraint);
    }
  });
});
