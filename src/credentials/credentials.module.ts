import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { CryptoModule } from '../crypto/crypto.module';
import { CredentialSealing } from './credential-sealing';
import { CredentialStore } from './credential-store';
import { CredentialUseTally } from './credential-use-tally';
import { CredentialsRepository } from './credentials.repository';
import { UpstreamCredentials } from './upstream-credentials';

/**
 * Stored credentials, sealed: the store behind the credentials routes (src/vault), the lookup
 * upstream calls make, and the tally of their use. No routes of its own.
 */
@Module({
  imports: [AuditModule, CryptoModule],
  providers: [
    CredentialsRepository,
    CredentialSealing,
    CredentialStore,
    UpstreamCredentials,
    CredentialUseTally,
  ],
  exports: [
    CredentialsRepository,
    CredentialSealing,
    CredentialStore,
    UpstreamCredentials,
    CredentialUseTally,
  ],
})
export class CredentialsModule {}
