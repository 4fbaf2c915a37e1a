import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { AppConfig } from './app-config';

/** Typed access to the validated configuration: `config.get('http', { infer: true })`. */
export type AppConfigService = ConfigService<AppConfig, true>;

/**
 * The configuration is validated once, before the module graph exists (bootstrap.ts), so a bad
 * value stops the start with one line naming it; this module only serves the validated object.
 */
@Module({})
export class AppConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppConfigModule,
      global: true,
      imports: [
        ConfigModule.forRoot({
          isGlobal: true,
          ignoreEnvFile: true,
          skipProcessEnv: true,
          load: [() => ({ ...config })],
        }),
      ],
    };
  }
}
