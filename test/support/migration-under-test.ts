import { connectEmbedded, type SqlSession } from '../../src/database/database-connection';
import { applyMigrations, readMigrations } from '../../src/database/migrator';
import { PrismaService } from '../../src/database/prisma.service';

/**
 * A test of one migration: an embedded database migrated up to just before it, rows written there
 * as the older schema held them, then the migration and every later one applied and the result
 * read through Prisma.
 */
export class MigrationUnderTest {
  private prisma?: PrismaService;

  private constructor(
    readonly name: string,
    private readonly connection: Awaited<ReturnType<typeof connectEmbedded>>,
    private readonly later: string[],
  ) {}

  static async before(name: string): Promise<MigrationUnderTest> {
    const migrations = readMigrations();
    const index = migrations.findIndex((migration) => migration.name === name);
    if (index <= 0) throw new Error(`no migration ${name} after the first`);
    const connection = await connectEmbedded('memory://');
    await applyMigrations(connection, migrations.slice(0, index));
    return new MigrationUnderTest(
      name,
      connection,
      migrations.slice(index + 1).map((migration) => migration.name),
    );
  }

  /** Runs SQL on the database as the older schema has it. */
  withSession<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    return this.connection.withLock(0, work);
  }

  /** Applies this migration and every later one, in order, and answers Prisma on the result. */
  async applyRest(): Promise<PrismaService> {
    expect(await applyMigrations(this.connection)).toEqual([this.name, ...this.later]);
    this.prisma = new PrismaService(this.connection);
    await this.prisma.onModuleInit();
    return this.prisma;
  }

  async close(): Promise<void> {
    if (this.prisma) await this.prisma.onModuleDestroy();
    else await this.connection.close();
  }
}
