import { timingSafeEqual } from 'node:crypto';
import type { ChainMac } from './audit-chain';
import type { AuditCheckpointView } from './dto/audit.dto';

export type AuditCheckpoint = AuditCheckpointView;

// The tenant, position and time as one unambiguous text: ids and hashes hold no NUL.
function signedText(checkpoint: Omit<AuditCheckpoint, 'signature'>): string {
  const { tenantId, seq, hash, at } = checkpoint;
  return `pipes-gateway/audit-checkpoint/v1\0${tenantId}\0${seq}\0${hash}\0${at}`;
}

/** A checkpoint of a tenant's chain head at `at`, signed with the active chain key. */
export function signCheckpoint(
  keys: ChainMac & { activeVersion: string },
  head: { tenantId: string; seq: number; hash: string },
  at: Date,
): AuditCheckpoint {
  const unsigned = { ...head, at: at.toISOString(), keyVersion: keys.activeVersion };
  return { ...unsigned, signature: keys.mac(unsigned.keyVersion, signedText(unsigned))! };
}

/** Whether this gateway signed `checkpoint` as it is (false too for a key version it does not have). */
export function isGenuineCheckpoint(keys: ChainMac, checkpoint: AuditCheckpoint): boolean {
  const expected = keys.mac(checkpoint.keyVersion, signedText(checkpoint));
  const given = Buffer.from(checkpoint.signature, 'utf8');
  return (
    expected !== null && given.length === expected.length && timingSafeEqual(given, Buffer.from(expected))
  );
}
