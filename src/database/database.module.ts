import { DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import { connectEmbedded, connectPostgres, DatabaseConnection } from './database-connection';
import { DATABASE_CONNECTION } from './database.tokens';
import { PrismaService } from './prisma.service';
import { WriteTransactions } from './write-transactions';

export interface DatabaseModuleOptions {
  /** A dump of a migrated embedded database that an in-memory one starts from (see connectEmbedded). */
  embeddedImage?: Blob;
}

@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions = {}): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
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
              : connectEmbedded(database.dataDir, options.embeddedImage);
          },
        },
        PrismaService,
        WriteTransactions,
      ],
      exports: [PrismaService, WriteTransactions, DATABASE_CONNECTION],
    };
  }
}
