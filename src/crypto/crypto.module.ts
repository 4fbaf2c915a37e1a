import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfigService } from '../config/config.module';
import { AuditChainKeys } from './audit-chain-keys';
import { CryptoService } from './crypto.service';
import { KeyChecksService } from './key-checks.service';
import { KeyChecksRepository } from './key-checks.repository';
import { CredentialsRepository } from '../credentials/credentials.repository';
import { AuditEventsRepository } from '../audit/audit-events.repository';
import {
  AUDIT_CHAIN_KEYS,
  isEphemeralKeyRing,
  KeyRingSettings,
  loadKeyRing,
  loadSigningKeys,
  MASTER_KEYS,
} from './load-key-ring';
import { AuditSigningKeys } from './audit-signing-keys';

function settings(config: AppConfigService, keysText: string | null, purpose?: KeyRingSettings['purpose']) {
  return {
    keysText,
    env: config.get('env', { infer: true }),
    dataDir: config.get('database', { infer: true }).dataDir,
    purpose,
  };
}

/**
 * The key rings are loaded while the module graph is built, so a missing or malformed key stops
 * the start instead of failing on the first credential read; KeyChecksService then proves them
 * against the database before the gateway serves anything.
 */
@Module({
  providers: [
    {
      provide: CryptoService,
      inject: [ConfigService],
      useFactory: (config: AppConfigService): CryptoService => {
        const master = settings(config, config.get('encryptionKeys', { infer: true }), MASTER_KEYS);
        return new CryptoService(loadKeyRing(master), isEphemeralKeyRing(master));
      },
    },
    {
      provide: AuditChainKeys,
      inject: [ConfigService],
      useFactory: (config: AppConfigService): AuditChainKeys => {
        const chain = settings(config, config.get('auditChainKeys', { infer: true }), AUDIT_CHAIN_KEYS);
        return new AuditChainKeys(loadKeyRing(chain), isEphemeralKeyRing(chain));
      },
    },
    {
      provide: AuditSigningKeys,
      inject: [ConfigService],
      useFactory: (config: AppConfigService): AuditSigningKeys =>
        loadSigningKeys(settings(config, config.get('auditSigningKeys', { infer: true }))),
    },
    KeyChecksService,
    KeyChecksRepository,
    // The checks read these tables too; their repositories hold no state, and the modules that own
    // them import this one.
    CredentialsRepository,
    AuditEventsRepository,
  ],
  exports: [CryptoService, AuditChainKeys, AuditSigningKeys],
})
export class CryptoModule {}
