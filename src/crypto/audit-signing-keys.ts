import { createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject } from 'node:crypto';
import { CompactSign, compactVerify, decodeProtectedHeader } from 'jose';
import { KeyRingError } from './key-ring';

export const SIGNING_KEYS_VARIABLE = 'AUDIT_SIGNING_KEYS';

// What a key id may be: it travels in JWS headers and JWKS documents, and names a key in the docs.
const KEY_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
// Strict standard base64, as for the other key rings: a typo must not become another key.
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The protected header's `typ` of an audit checkpoint: a signature over anything else is not one. */
export const CHECKPOINT_TYPE = 'pipes-gateway.audit-checkpoint';

/** A public key as GET /v1/audit/signing-keys answers it (RFC 8037). */
export interface SigningJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

/**
 * The Ed25519 keys that sign audit checkpoints (AUDIT_SIGNING_KEYS): the first signs, every one is
 * published for verification, so checkpoints signed before a rotation still verify. Anyone with
 * the public keys can check a checkpoint; only the holder of a private key can make one.
 */
export class AuditSigningKeys {
  // A private field keeps the keys out of util.inspect, JSON.stringify and logged objects.
  readonly #keys: ReadonlyMap<string, KeyObject>;
  readonly activeKid: string;

  /** `ephemeral`: generated in memory for this process, published only while it runs. */
  constructor(
    entries: ReadonlyArray<{ kid: string; key: KeyObject }>,
    readonly ephemeral = false,
  ) {
    this.#keys = new Map(entries.map(({ kid, key }) => [kid, key]));
    this.activeKid = entries[0].kid;
  }

  /** The public keys, the active one first. */
  jwks(): { keys: SigningJwk[] } {
    return {
      keys: [...this.#keys].map(([kid, key]) => {
        const { x } = createPublicKey(key).export({ format: 'jwk' });
        return { kty: 'OKP', crv: 'Ed25519', x: x!, kid, alg: 'EdDSA', use: 'sig' };
      }),
    };
  }

  /**
   * The payload of a checkpoint JWS signed with one of these keys, or null: another key, type or
   * algorithm, a bad signature, or not a JWS at all.
   */
  async verified(jws: string): Promise<unknown> {
    try {
      const { kid, typ, alg } = decodeProtectedHeader(jws);
      const key = kid === undefined ? undefined : this.#keys.get(kid);
      if (key === undefined || typ !== CHECKPOINT_TYPE || alg !== 'EdDSA') return null;
      const { payload } = await compactVerify(jws, createPublicKey(key), { algorithms: ['EdDSA'] });
      return JSON.parse(Buffer.from(payload).toString('utf8')) as unknown;
    } catch {
      return null;
    }
  }

  /** A compact JWS (EdDSA) of `payload` under the active key. */
  sign(payload: object): Promise<string> {
    return new CompactSign(Buffer.from(JSON.stringify(payload)))
      .setProtectedHeader({ alg: 'EdDSA', kid: this.activeKid, typ: CHECKPOINT_TYPE })
      .sign(this.#keys.get(this.activeKid)!);
  }
}

/**
 * Parses `<kid>:<base64 of a PKCS#8 DER Ed25519 private key>[,…]`; the first entry signs. `source`
 * names where the text came from in error messages, which never quote key material.
 */
export function parseSigningKeys(
  text: string,
  source = SIGNING_KEYS_VARIABLE,
): Array<{ kid: string; key: KeyObject }> {
  if (text.trim() === '') throw new KeyRingError(source, 'must list at least one key');
  const seen = new Set<string>();
  return text.split(',').map((raw, index) => {
    const entry = raw.trim();
    const position = `entry ${index + 1}`;
    if (entry === '') throw new KeyRingError(source, `${position} is empty (check for stray commas)`);
    const colon = entry.indexOf(':');
    const kid = colon < 0 ? '' : entry.slice(0, colon).trim();
    if (!KEY_ID.test(kid)) {
      throw new KeyRingError(
        source,
        `${position} must be written <key id>:<base64 of a PKCS#8 DER Ed25519 private key>, the key id ` +
          '1 to 64 letters, digits, dots, dashes or underscores',
      );
    }
    if (seen.has(kid)) throw new KeyRingError(source, `lists key id ${kid} more than once`);
    seen.add(kid);
    const encoded = entry.slice(colon + 1).trim();
    const der = Buffer.from(encoded, 'base64');
    if (!BASE64.test(encoded) || der.toString('base64') !== encoded) {
      throw new KeyRingError(source, `key ${kid} is not valid base64 (standard alphabet, = padded)`);
    }
    let key: KeyObject;
    try {
      key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    } catch {
      throw new KeyRingError(source, `key ${kid} is not a PKCS#8 DER private key`);
    }
    if (key.asymmetricKeyType !== 'ed25519') {
      throw new KeyRingError(source, `key ${kid} is a ${key.asymmetricKeyType} key, not Ed25519`);
    }
    return { kid, key };
  });
}

/** A new entry, e.g. for `AUDIT_SIGNING_KEYS=<new>,<current keys>`. */
export function generateSigningKeyText(kid: string): string {
  if (!KEY_ID.test(kid)) {
    throw new RangeError(
      `A signing key id is 1 to 64 letters, digits, dots, dashes or underscores (got "${kid}")`,
    );
  }
  const { privateKey } = generateKeyPairSync('ed25519');
  return `${kid}:${privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')}`;
}

/** The key id the CLI gives a new key when none is asked for: the day it was made. */
export function datedKeyId(now = new Date()): string {
  return `audit-${now.toISOString().slice(0, 10)}`;
}
