import { randomBytes } from 'node:crypto';

export const KEYS_VARIABLE = 'GATEWAY_ENCRYPTION_KEYS';
export const KEY_BYTES = 32;

const VERSION = /^v\d+$/;
// Strict standard base64: Buffer.from(text, 'base64') silently skips anything it cannot read,
// so a typo would otherwise become a shorter (or different) key instead of an error.
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * A malformed key ring. The message names where the keys came from and the offending version
 * (or the entry's position when even the version is unreadable), never the key material.
 */
export class KeyRingError extends Error {
  constructor(
    readonly source: string,
    problem: string,
  ) {
    super(`${source} ${problem}`);
    this.name = 'KeyRingError';
  }
}

/** A sealed value names a key version this gateway was not given. */
export class UnknownKeyVersionError extends Error {
  constructor(
    readonly keyVersion: string,
    knownVersions: readonly string[],
  ) {
    super(
      `Key version ${keyVersion} is not in the key ring (known: ${knownVersions.join(', ')}); ` +
        `add it back to ${KEYS_VARIABLE} to read values sealed with it`,
    );
    this.name = 'UnknownKeyVersionError';
  }
}

export function isKeyVersion(text: string): boolean {
  return VERSION.test(text);
}

/** Versioned AES-256 master keys; the first one seals new values, all of them open old ones. */
export class KeyRing {
  // A private field keeps the keys out of util.inspect, JSON.stringify and logged objects.
  readonly #keys: ReadonlyMap<string, Buffer>;
  readonly activeVersion: string;

  constructor(entries: ReadonlyArray<{ version: string; key: Buffer }>, source = KEYS_VARIABLE) {
    if (entries.length === 0) throw new KeyRingError(source, 'must list at least one key');
    const keys = new Map<string, Buffer>();
    for (const { version, key } of entries) {
      if (!isKeyVersion(version)) {
        throw new KeyRingError(source, 'has a key version that is not v followed by digits, such as v1');
      }
      if (keys.has(version)) throw new KeyRingError(source, `lists key version ${version} more than once`);
      if (key.length !== KEY_BYTES) {
        throw new KeyRingError(
          source,
          `key ${version} must decode to exactly ${KEY_BYTES} bytes (got ${key.length})`,
        );
      }
      keys.set(version, Buffer.from(key));
    }
    this.#keys = keys;
    this.activeVersion = entries[0].version;
  }

  get(version: string): Buffer {
    const key = this.#keys.get(version);
    if (!key) throw new UnknownKeyVersionError(version, this.versions());
    return key;
  }

  has(version: string): boolean {
    return this.#keys.has(version);
  }

  /** Every version, the active one first. */
  versions(): string[] {
    return [...this.#keys.keys()];
  }
}

/**
 * Parses `v2:<base64 of 32 bytes>,v1:<...>`; the first entry is the active key. `source` names
 * where the text came from in error messages.
 */
export function parseKeyRing(text: string, source = KEYS_VARIABLE): KeyRing {
  if (text.trim() === '') throw new KeyRingError(source, 'must list at least one key');
  const entries = text.split(',').map((raw, index) => {
    const entry = raw.trim();
    const position = `entry ${index + 1}`;
    if (entry === '') throw new KeyRingError(source, `${position} is empty (check for stray commas)`);
    const colon = entry.indexOf(':');
    if (colon < 0) {
      throw new KeyRingError(source, `${position} must be written <version>:<base64 key>, such as v1:...`);
    }
    const version = entry.slice(0, colon).trim();
    const encoded = entry.slice(colon + 1).trim();
    if (!isKeyVersion(version)) {
      throw new KeyRingError(
        source,
        `${position} has a version that is not v followed by digits, such as v1`,
      );
    }
    if (encoded === '') throw new KeyRingError(source, `key ${version} is empty`);
    const key = Buffer.from(encoded, 'base64');
    if (!BASE64.test(encoded) || key.toString('base64') !== encoded) {
      throw new KeyRingError(source, `key ${version} is not valid base64 (standard alphabet, = padded)`);
    }
    return { version, key };
  });
  return new KeyRing(entries, source);
}

/** A new random key ring entry, e.g. for `GATEWAY_ENCRYPTION_KEYS=v2:...,<current keys>`. */
export function generateKeyText(version = 'v1'): string {
  if (!isKeyVersion(version)) {
    throw new RangeError(`A key version must be v followed by digits, such as v1 (got "${version}")`);
  }
  return `${version}:${randomBytes(KEY_BYTES).toString('base64')}`;
}
