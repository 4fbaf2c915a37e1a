import { connectEmbedded, connectPostgres, DatabaseConnection } from '../../src/database/database-connection';
import { applyMigrations, MigrationError, readMigrations } from '../../src/database/migrator';
import { embeddedDatabaseImage } from '../support/embedded-database-image';
import { itWithPostgres, postgresUrl } from '../support/skip';

describe('migrator', () => {
  let connection: DatabaseConnection;

  // From the run's migrated image: only the first test needs a database with nothing applied.
  beforeEach(async () => {
    connection = await connectEmbedded('memory://', embeddedDatabaseImage());
  });
  afterEach(async () => {
    await connection.close();
  });

  it('applies every migration once and records it where Prisma Migrate looks', async () => {
    const fresh = await connectEmbedded('memory://');
    try {
      const migrations = readMigrations();
      expect(await applyMigrations(fresh)).toEqual(migrations.map((m) => m.name));
      expect(await applyMigrations(fresh)).toEqual([]);
      const rows = await fresh.withLock(0, (session) =>
        session.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
          'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name',
        ),
      );
      expect(rows.map((row) => [row.migration_name, row.checksum])).toEqual(
        migrations.map((m) => [m.name, m.checksum]),
      );
      expect(rows.every((row) => row.finished_at !== null)).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('refuses to start when an applied migration was edited', async () => {
    await applyMigrations(connection);
    const edited = readMigrations().map((m, i) => (i === 0 ? { ...m, checksum: 'f'.repeat(64) } : m));
    await expect(applyMigrations(connection, edited)).rejects.toThrow(/was edited after it was applied/);
  });

  it('rolls a failing migration back entirely and says which one failed', async () => {
    const broken = [
      {
        name: '99990101000000_broken',
        sql: 'CREATE TABLE t_ok (id int); SELECT nope FROM missing;',
        checksum: 'x',
      },
    ];
    await expect(applyMigrations(connection, broken)).rejects.toThrow(MigrationError);
    await expect(applyMigrations(connection, broken)).rejects.toThrow(/99990101000000_broken failed/);
    const tables = await connection.withLock(0, (session) =>
      session.query("SELECT 1 FROM information_schema.tables WHERE table_name = 't_ok'"),
    );
    expect(tables).toHaveLength(0);
  });

  itWithPostgres('lets replicas start together: the lock makes one apply and the other wait', async () => {
    // The suite's database is already migrated by other tests or not; either way both calls must
    // succeed and no migration may be applied twice.
    const replicas = [
      connectPostgres(postgresUrl()!, { poolSize: 2 }),
      connectPostgres(postgresUrl()!, { poolSize: 2 }),
    ];
    try {
      const results = await Promise.all(replicas.map((replica) => applyMigrations(replica)));
      const appliedTwice = results[0].filter((name) => results[1].includes(name));
      expect(appliedTwice).toEqual([]);
      const counts = await replicas[0].withLock(0, (session) =>
        session.query<{ n: string }>(
          'SELECT count(*)::text AS n FROM "_prisma_migrations" GROUP BY migration_name',
        ),
      );
      expect(counts.every((row) => row.n === '1')).toBe(true);
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
    }
  });
});
