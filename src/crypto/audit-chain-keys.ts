import { createHmac, createSecretKey, KeyObject, timingSafeEqual } from 'node:crypto';
import type { KeyRing } from './key-ring';

// A key check under the second label also says that the database's legacy ends are recorded
// (src/audit/legacy-ends.ts); one under the first predates that.
const KEY_CHECK_LABEL = 'pipes-gateway/key-check/v2\0audit-chain\0';
const UNRECORDED_LEGACY_KEY_CHECK_LABEL = 'pipes-gateway/key-check/v1\0audit-chain\0';

/**
 * The audit chain's HMAC-SHA-256 keys (AUDIT_CHAIN_KEYS), kept out of the database: whoever can
 * write the database but does not hold them cannot make an altered event verify. The first key
 * chains new events; every key verifies the events chained with it.
 */
export class AuditChainKeys {
  // Private fields keep the keys out of util.inspect, JSON.stringify and logged objects.
  readonly #keys: ReadonlyMap<string, KeyObject>;
  readonly activeVersion: string;

  /** `ephemeral`: the keys were generated in memory for this process and cannot be checked. */
  constructor(
    ring: KeyRing,
    readonly ephemeral = false,
  ) {
    this.#keys = new Map(ring.versions().map((version) => [version, createSecretKey(ring.get(version))]));
    this.activeVersion = ring.activeVersion;
  }

  has(version: string): boolean {
    return this.#keys.has(version);
  }

  /** Every version, the active one first. */
  versions(): string[] {
    return [...this.#keys.keys()];
  }

  /** HMAC-SHA-256 (hex) of `text` under key `version`; null when this gateway has no such key. */
  mac(version: string, text: string): string | null {
    const key = this.#keys.get(version);
    return key ? createHmac('sha256', key).update(text).digest('hex') : null;
  }

  /** A value only key `version` produces: stored when the version is first used, checked at every start. */
  keyCheck(version: string): Buffer {
    return Buffer.from(this.mac(version, `${KEY_CHECK_LABEL}${version}`)!, 'hex');
  }

  keyCheckMatches(version: string, check: Buffer): boolean {
    return sameBytes(check, this.keyCheck(version));
  }

  /** Whether `check` is key `version`'s check from before legacy ends were recorded. */
  isCheckBeforeLegacyEnds(version: string, check: Buffer): boolean {
    const earlier = this.mac(version, `${UNRECORDED_LEGACY_KEY_CHECK_LABEL}${version}`);
    return earlier !== null && sameBytes(check, Buffer.from(earlier, 'hex'));
  }
}

function sameBytes(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}
