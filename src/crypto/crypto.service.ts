import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { KeyRing } from './key-ring';

const ALGORITHM = 'aes-256-gcm';
// 96-bit IVs are GCM's native size; anything else is hashed into one and weakens the bounds.
const IV_BYTES = 12;
// Full-length tags only: a shorter tag accepted on decrypt would make forgeries cheaper.
const AUTH_TAG_BYTES = 16;

/** An encrypted value as stored: every part is needed, with the same associated data, to open it. */
export interface SealedSecret {
  ciphertext: Buffer;
  iv: Buffer;
  authTag: Buffer;
  keyVersion: string;
}

/** The sealed value or its associated data is not what was sealed; deliberately says no more. */
export class DecryptionError extends Error {
  constructor(readonly keyVersion: string) {
    super(
      `Cannot decrypt a value sealed with key ${keyVersion}: ` +
        'ciphertext, IV, tag or associated data do not match',
    );
    this.name = 'DecryptionError';
  }
}

/**
 * Associated data for a stored upstream credential. Binding the tenant and the credential id
 * means a row copied to another tenant or credential no longer decrypts. The NUL separators
 * (refused inside the ids) keep ("a", "bc") and ("ab", "c") apart; the label and its version let
 * other kinds of sealed values, or a future layout, never collide with this one.
 */
export function credentialAssociatedData(tenantId: string, credentialId: string): string {
  if (tenantId === '' || credentialId === '' || tenantId.includes('\0') || credentialId.includes('\0')) {
    throw new TypeError('Tenant and credential ids must be non-empty and free of NUL characters');
  }
  return `pipes-gateway/credential/v1\0${tenantId}\0${credentialId}`;
}

// What a key check seals: nothing secret, only proof that the key opens what it sealed.
const KEY_CHECK_PLAINTEXT = 'pipes-gateway key check';

/** Associated data of a key check: bound to its key version, apart from every credential's. */
function keyCheckData(keyVersion: string): string {
  return `pipes-gateway/key-check/v1\0${keyVersion}`;
}

/** AES-256-GCM envelope encryption under the configured key ring (docs/vault.md). */
@Injectable()
export class CryptoService {
  readonly #keyRing: KeyRing;
  readonly #fingerprintKeys = new Map<string, Buffer>();

  /** `ephemeral`: the keys were generated in memory for this process and cannot be checked. */
  constructor(
    keyRing: KeyRing,
    readonly ephemeral = false,
  ) {
    this.#keyRing = keyRing;
  }

  get activeKeyVersion(): string {
    return this.#keyRing.activeVersion;
  }

  /** Every version this gateway can decrypt, the active one first. */
  knownKeyVersions(): string[] {
    return this.#keyRing.versions();
  }

  encrypt(plaintext: Buffer | string, associatedData: string): SealedSecret {
    return this.#seal(this.#keyRing.activeVersion, plaintext, associatedData);
  }

  /**
   * A known value sealed with key `keyVersion`: stored when the version is first used, it proves at
   * every start that the configured key is the one that sealed the data (keyCheckOpens).
   */
  sealKeyCheck(keyVersion: string): Buffer {
    const { iv, authTag, ciphertext } = this.#seal(keyVersion, KEY_CHECK_PLAINTEXT, keyCheckData(keyVersion));
    return Buffer.concat([iv, authTag, ciphertext]);
  }

  keyCheckOpens(keyVersion: string, check: Buffer): boolean {
    const sealed = {
      keyVersion,
      iv: check.subarray(0, IV_BYTES),
      authTag: check.subarray(IV_BYTES, IV_BYTES + AUTH_TAG_BYTES),
      ciphertext: check.subarray(IV_BYTES + AUTH_TAG_BYTES),
    };
    try {
      return this.decrypt(sealed, keyCheckData(keyVersion)).toString('utf8') === KEY_CHECK_PLAINTEXT;
    } catch (error) {
      if (error instanceof DecryptionError) return false;
      throw error;
    }
  }

  #seal(keyVersion: string, plaintext: Buffer | string, associatedData: string): SealedSecret {
    // A random IV per message: GCM loses both confidentiality and integrity if one ever repeats.
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#keyRing.get(keyVersion), iv, {
      authTagLength: AUTH_TAG_BYTES,
    });
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([
      typeof plaintext === 'string' ? cipher.update(plaintext, 'utf8') : cipher.update(plaintext),
      cipher.final(),
    ]);
    return { ciphertext, iv, authTag: cipher.getAuthTag(), keyVersion };
  }

  /**
   * Throws UnknownKeyVersionError when the key version is not configured, and DecryptionError
   * when anything sealed, or the associated data, differs from what was encrypted.
   */
  decrypt(sealed: SealedSecret, associatedData: string): Buffer {
    const key = this.#keyRing.get(sealed.keyVersion);
    if (sealed.iv.length !== IV_BYTES || sealed.authTag.length !== AUTH_TAG_BYTES) {
      throw new DecryptionError(sealed.keyVersion);
    }
    try {
      const decipher = createDecipheriv(ALGORITHM, key, sealed.iv, { authTagLength: AUTH_TAG_BYTES });
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(sealed.authTag);
      return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
    } catch {
      // One error for every failure: saying which part failed would only help someone probing.
      throw new DecryptionError(sealed.keyVersion);
    }
  }

  /**
   * A keyed hash of `data` (HMAC-SHA256 under a key derived from the active master key), prefixed
   * with the key version: it tells two requests apart, secrets included, without storing anything
   * that reveals them.
   */
  fingerprint(data: string): string {
    const version = this.#keyRing.activeVersion;
    return `${version}:${createHmac('sha256', this.fingerprintKey(version)).update(data).digest('base64url')}`;
  }

  /** Whether `fingerprint` is of `data`; false when its key version is no longer configured. */
  fingerprintMatches(data: string, fingerprint: string): boolean {
    const separator = fingerprint.indexOf(':');
    const version = fingerprint.slice(0, separator);
    if (separator < 0 || !this.#keyRing.versions().includes(version)) return false;
    const expected = createHmac('sha256', this.fingerprintKey(version)).update(data).digest();
    const given = Buffer.from(fingerprint.slice(separator + 1), 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private fingerprintKey(version: string): Buffer {
    let key = this.#fingerprintKeys.get(version);
    if (key === undefined) {
      // Its own key, not the master key: an HMAC and the cipher never share key material.
      key = Buffer.from(
        hkdfSync('sha256', this.#keyRing.get(version), '', 'pipes-gateway/fingerprint/v1', 32),
      );
      this.#fingerprintKeys.set(version, key);
    }
    return key;
  }

  needsRewrap(sealed: Pick<SealedSecret, 'keyVersion'>): boolean {
    return sealed.keyVersion !== this.#keyRing.activeVersion;
  }

  /** Re-encrypts under the active key; the result gets a fresh IV even when the version is unchanged. */
  rewrap(sealed: SealedSecret, associatedData: string): SealedSecret {
    const plaintext = this.decrypt(sealed, associatedData);
    try {
      return this.encrypt(plaintext, associatedData);
    } finally {
      plaintext.fill(0);
    }
  }
}
