import { timingSafeEqual } from 'node:crypto';
import type { ChainAnchor, ChainMac } from './audit-chain';
import type { AuditCheckpointView } from './dto/audit.dto';

export type AuditCheckpoint = AuditCheckpointView;
/** The part of a checkpoint the chain key signs (and POST /v1/audit/verify checks). */
export type KeyedCheckpoint = Omit<AuditCheckpoint, 'digest' | 'jws'>;

/** An NDJSON line that carries a signed checkpoint, after the events it covers (export, sinks). */
export function checkpointLine(jws: string): string {
  return `${checkpointRecord(jws)}\n`;
}

/** The same line without its newline: what a sink delivers, as it delivers an event's line. */
export function checkpointRecord(jws: string): string {
  return JSON.stringify({ checkpoint: jws });
}

// The tenant, position and time as one unambiguous text: ids and hashes hold no NUL.
function signedText(checkpoint: Omit<KeyedCheckpoint, 'signature'>): string {
  const { tenantId, seq, hash, at } = checkpoint;
  return `pipes-gateway/audit-checkpoint/v1\0${tenantId}\0${seq}\0${hash}\0${at}`;
}

// Another label than a checkpoint's: a checkpoint of a head is never taken for a legacy end.
function legacyEndText(end: LegacyEnd): string {
  return `pipes-gateway/audit-legacy-end/v1\0${end.tenantId}\0${end.seq}\0${end.hash}`;
}

/** A checkpoint of a tenant's chain head at `at`, signed with the active chain key. */
export function signCheckpoint(
  keys: ChainMac & { activeVersion: string },
  head: { tenantId: string; seq: number; hash: string },
  at: Date,
): KeyedCheckpoint {
  const unsigned = { ...head, at: at.toISOString(), keyVersion: keys.activeVersion };
  return { ...unsigned, signature: keys.mac(unsigned.keyVersion, signedText(unsigned))! };
}

/** Whether this gateway signed `checkpoint` as it is (false too for a key version it does not have). */
export function isGenuineCheckpoint(keys: ChainMac, checkpoint: KeyedCheckpoint): boolean {
  return macMatches(keys, checkpoint.keyVersion, signedText(checkpoint), checkpoint.signature);
}

/** The last event of a tenant's chain that was chained before keyed chaining: its seq and hash. */
export interface LegacyEnd {
  tenantId: string;
  seq: number;
  hash: string;
}

/** The signature that vouches for `end`, with the active chain key. */
export function signLegacyEnd(
  keys: ChainMac & { activeVersion: string },
  end: LegacyEnd,
): { keyVersion: string; signature: string } {
  return { keyVersion: keys.activeVersion, signature: keys.mac(keys.activeVersion, legacyEndText(end))! };
}

/**
 * The legacy end a chain row records, as an anchor verification must pass, if this gateway signed
 * it as it is for this tenant; null otherwise (none recorded, or forged: then no legacy event counts).
 */
export function genuineLegacyEnd(
  keys: ChainMac,
  tenantId: string,
  row: {
    legacyEndSeq: number | null;
    legacyEndHash: string | null;
    legacyEndKeyVersion: string | null;
    legacyEndSignature: string | null;
  },
): ChainAnchor | null {
  const { legacyEndSeq: seq, legacyEndHash: hash, legacyEndKeyVersion, legacyEndSignature } = row;
  if (seq === null || hash === null || legacyEndKeyVersion === null || legacyEndSignature === null)
    return null;
  const text = legacyEndText({ tenantId, seq, hash });
  return macMatches(keys, legacyEndKeyVersion, text, legacyEndSignature) ? { seq, hash } : null;
}

function macMatches(keys: ChainMac, version: string, text: string, signature: string): boolean {
  const expected = keys.mac(version, text);
  const given = Buffer.from(signature, 'utf8');
  return (
    expected !== null && given.length === expected.length && timingSafeEqual(given, Buffer.from(expected))
  );
}
