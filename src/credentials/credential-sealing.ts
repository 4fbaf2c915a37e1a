import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ProblemException } from '../common/problem/problem';
import {
  credentialAssociatedData,
  CryptoService,
  DecryptionError,
  SealedSecret,
} from '../crypto/crypto.service';
import type { Credential } from '../generated/prisma/client';
import { CredentialSecret, decodeSecret, encodeSecret } from './credential-secret';
import { CredentialsRepository, SealedColumns } from './credentials.repository';

/**
 * Seals a credential's secret under the active master key, bound to its tenant and id, and opens
 * it again; the only code that turns a credential row into its secret.
 */
@Injectable()
export class CredentialSealing implements OnModuleInit {
  private readonly logger = new Logger(CredentialSealing.name);

  constructor(
    private readonly crypto: CryptoService,
    private readonly credentials: CredentialsRepository,
  ) {}

  /** A master key that still seals credentials must stay configured: refuse to start without it. */
  async onModuleInit(): Promise<void> {
    const usage = await this.credentials.keyVersionUsage();
    const known = this.crypto.knownKeyVersions();
    const missing = Object.keys(usage).filter((version) => !known.includes(version));
    if (missing.length > 0) {
      throw new Error(
        `GATEWAY_ENCRYPTION_KEYS lacks ${missing.join(', ')}, which still seal ${missing.map((v) => usage[v]).join(' + ')} credential(s); ` +
          'put the key back, run "keys rewrap", and only then remove it',
      );
    }
  }

  seal(tenantId: string, id: string, secret: CredentialSecret): SealedColumns {
    return sealedColumns(this.crypto.encrypt(encodeSecret(secret), credentialAssociatedData(tenantId, id)));
  }

  /** The secret of a stored credential; 500 `credential-unreadable` when it does not decrypt. */
  open(row: Credential): CredentialSecret {
    try {
      return decodeSecret(this.crypto.decrypt(sealedOf(row), credentialAssociatedData(row.tenantId, row.id)));
    } catch (error) {
      this.logger.error(
        { credentialId: row.id, keyVersion: row.keyVersion, err: error },
        'stored credential failed to decrypt: altered, copied, or sealed with a key that is not configured',
      );
      throw new ProblemException({
        status: 500,
        type: 'credential-unreadable',
        title: 'Stored credential unreadable',
        detail: `Credential ${row.id} cannot be decrypted${
          error instanceof DecryptionError ? ' (it was altered or copied)' : ''
        }; nothing was sent upstream. An admin should rotate it.`,
      });
    }
  }
}

export function sealedOf(row: Credential): SealedSecret {
  return {
    ciphertext: Buffer.from(row.ciphertext),
    iv: Buffer.from(row.iv),
    authTag: Buffer.from(row.authTag),
    keyVersion: row.keyVersion,
  };
}

export function sealedColumns(sealed: SealedSecret): SealedColumns {
  return {
    ciphertext: new Uint8Array(sealed.ciphertext),
    iv: new Uint8Array(sealed.iv),
    authTag: new Uint8Array(sealed.authTag),
    keyVersion: sealed.keyVersion,
  };
}
