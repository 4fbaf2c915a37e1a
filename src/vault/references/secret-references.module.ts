import { Module } from '@nestjs/common';
import { CredentialsModule } from '../../credentials/credentials.module';
import { SecretReferences } from './secret-references';
import { SecretUsesRepository } from './secret-uses.repository';

/**
 * Vault secrets as pipe bodies reference them: resolved into the body sent upstream, and where each
 * is used recorded. Imported by the pipes module, which resolves them, and by the vault's routes.
 */
@Module({
  imports: [CredentialsModule],
  providers: [SecretReferences, SecretUsesRepository],
  exports: [SecretReferences, SecretUsesRepository],
})
export class SecretReferencesModule {}
