import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Prisma, PrismaClient } from '../generated/prisma/client';
import { DATABASE_CONNECTION } from './database.tokens';
import type { DatabaseConnection } from './database-connection';
import { applyMigrations } from './migrator';
import { unloadQueryCompilerSource } from './query-compiler-source';

/** The transaction client handed to `$transaction(async (tx) => ...)`. */
export type PrismaTx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(PrismaService.name);
  private migrated = false;

  constructor(@Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection) {
    // Appends queue on a tenant's audit chain row, so a burst of writers may wait for a connection.
    super({ adapter: connection.adapter, transactionOptions: { maxWait: 5_000, timeout: 15_000 } });
  }

  /** Fails the start when the database is unreachable or a migration fails: no half-booted gateway. */
  async onModuleInit(): Promise<void> {
    let applied: string[];
    try {
      applied = await applyMigrations(this.connection);
      await this.$connect();
      // Built by now: what it was built from need not stay in memory.
      unloadQueryCompilerSource();
    } catch (error) {
      const setting = this.connection.kind === 'postgres' ? 'DATABASE_URL' : 'DATA_DIR';
      throw new Error(
        `database ${this.connection.description} is not usable: ${(error as Error).message} ` +
          `(check ${setting} and that the database is up)`,
        { cause: error },
      );
    }
    this.migrated = true;
    if (applied.length > 0) this.logger.log(`applied migrations: ${applied.join(', ')}`);
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
    await this.connection.close();
  }

  /**
   * Runs `sql`, one statement, straight on the driver where there is a pool (DatabaseConnection.query);
   * `prepared` where its text is one of few.
   */
  statement<Row>(sql: Prisma.Sql, options: { prepared?: boolean } = {}): Promise<Row[]> {
    const { query } = this.connection;
    return query ? query<Row>(sql.text, sql.values, options) : this.$queryRaw<Row[]>(sql);
  }

  get description(): string {
    return this.connection.description;
  }

  /** Ready means: migrations applied at start, and the database answers now. */
  async isReady(): Promise<boolean> {
    if (!this.migrated) return false;
    try {
      await this.$queryRaw`SELECT 1`;
      return true;
    } catch {
      return false;
    }
  }
}
