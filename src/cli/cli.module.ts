import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import type { AppConfig } from '../config/app-config';
import { AppConfigModule } from '../config/config.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { CryptoModule } from '../crypto/crypto.module';
import { DatabaseModule } from '../database/database.module';
import { TenantsModule } from '../tenants/tenants.module';

/** The same services the HTTP API uses, without the HTTP layer. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        AppConfigModule.forRoot(config),
        DatabaseModule.forRoot(),
        CryptoModule,
        AuditModule,
        AuthModule,
        TenantsModule,
        CredentialsModule,
      ],
    };
  }
}
