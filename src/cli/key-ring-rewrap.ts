import { credentialAssociatedData, CryptoService } from '../crypto/crypto.service';
import { sealedColumns, sealedOf } from '../credentials/credential-sealing';
import { CredentialsRepository } from '../credentials/credentials.repository';

/**
 * `keys rewrap`: moves every credential sealed with an older key version to the active one, row by
 * row under a row lock, so rotations and reads carry on meanwhile. Returns how many rows moved.
 */
export async function rewrapCredentials(
  credentials: CredentialsRepository,
  crypto: CryptoService,
): Promise<number> {
  const active = crypto.activeKeyVersion;
  let moved = 0;
  for (;;) {
    const batch = await credentials.sealedWithOtherThan(active);
    if (batch.length === 0) return moved;
    for (const id of batch) {
      const resealed = await credentials.resealed(id, (current) =>
        current.keyVersion === active
          ? null
          : sealedColumns(crypto.rewrap(sealedOf(current), credentialAssociatedData(current.tenantId, id))),
      );
      if (resealed) moved += 1;
    }
  }
}
