import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import { connectEmbedded, connectPostgres, DatabaseConnection } from './database-connection';
import { DATABASE_CONNECTION } from './database.tokens';
import { PrismaService } from './prisma.service';
import { WriteTransactions } from './write-transactions';

@Global()
@Module({
  providers: [
    {
      provide: DATABASE_CONNECTION,
      inject: [ConfigService],
      useFactory: (
        config: ConfigService<AppConfig, true>,
      ): DatabaseConnection | Promise<DatabaseConnection> => {
        const database = config.get('database', { infer: true });
        return database.url
          ? connectPostgres(database.url, { queryTimeoutMs: database.queryTimeoutMs })
          : connectEmbedded(database.dataDir);
      },
    },
    PrismaService,
    WriteTransactions,
  ],
  exports: [PrismaService, WriteTransactions, DATABASE_CONNECTION],
})
export class DatabaseModule {}
