import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectEmbedded } from '../../src/database/database-connection';
import { applyMigrations } from '../../src/database/migrator';
import { describeSchema } from '../support/catalog';
import { describeWithPostgres, postgresUrl } from '../support/skip';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { schemaSql } = require('../../scripts/schema-sql.js') as {
  schemaSql(options: { toSchema: string; databaseUrl?: string }): string;
};

// Prisma's offline schema engine opens (but does not write to) a Postgres connection.
describeWithPostgres('schema.prisma and prisma/migrations (drift)', () => {
  it('describe the same database', async () => {
    const fromMigrations = await connectEmbedded('memory://');
    const fromSchema = await connectEmbedded('memory://');
    try {
      await applyMigrations(fromMigrations);
      const sql = schemaSql({
        toSchema: readFileSync(join(__dirname, '..', '..', 'prisma', 'schema.prisma'), 'utf8'),
        databaseUrl: postgresUrl(),
      });
      await fromSchema.withLock(0, (session) => session.exec(sql));

      const expected = await fromSchema.withLock(0, describeSchema);
      const actual = await fromMigrations.withLock(0, describeSchema);
      // On failure: write the next migration with `node scripts/schema-sql.js --from HEAD`.
      expect(actual).toEqual(expected);
    } finally {
      await fromMigrations.close();
      await fromSchema.close();
    }
  }, 120_000);
});
