import type { Writable } from 'node:stream';
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AuditModule } from './audit/audit.module';
import { AuditSinksModule } from './audit-sinks/audit-sinks.module';
import { AuthModule } from './auth/auth.module';
import { ProblemFilter } from './common/problem/problem.filter';
import type { AppConfig } from './config/app-config';
import { AppConfigModule } from './config/config.module';
import { DashboardsModule } from './dashboards/dashboards.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { LoggingModule } from './logging/logging.module';
import { MeModule } from './me/me.module';
import { MetricsModule } from './metrics/metrics.module';
import { PipesModule } from './pipes/pipes.module';
import { PipeEventsModule } from './pipe-events/pipe-events.module';
import { TenantsModule } from './tenants/tenants.module';
import { VaultModule } from './vault/vault.module';

/**
 * The whole API. Only configuration, the database and metrics are global modules; every other
 * module imports what it uses, so its imports say what it depends on.
 */
@Module({})
export class AppModule {
  static forRoot(
    config: AppConfig,
    options: { logDestination?: Writable; embeddedDatabaseImage?: Blob } = {},
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(config),
        LoggingModule.forRoot(options.logDestination),
        DatabaseModule.forRoot({ embeddedImage: options.embeddedDatabaseImage }),
        MetricsModule,
        AuditModule,
        AuditSinksModule,
        AuthModule,
        TenantsModule,
        MeModule,
        VaultModule,
        PipesModule,
        PipeEventsModule,
        DashboardsModule,
        HealthModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: ProblemFilter }],
    };
  }
}
