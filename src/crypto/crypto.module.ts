import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfigService } from '../config/config.module';
import { CryptoService } from './crypto.service';
import { loadKeyRing } from './load-key-ring';

/**
 * The key ring is loaded while the module graph is built, so a missing or malformed key stops
 * the start instead of failing on the first credential read.
 */
@Global()
@Module({
  providers: [
    {
      provide: CryptoService,
      inject: [ConfigService],
      useFactory: (config: AppConfigService): CryptoService =>
        new CryptoService(
          loadKeyRing({
            keysText: config.get('encryptionKeys', { infer: true }),
            env: config.get('env', { infer: true }),
            dataDir: config.get('database', { infer: true }).dataDir,
          }),
        ),
    },
  ],
  exports: [CryptoService],
})
export class CryptoModule {}
