import { inspect } from 'node:util';
import { credentialAssociatedData, CryptoService, DecryptionError, SealedSecret } from './crypto.service';
import { generateKeyText, parseKeyRing, UnknownKeyVersionError } from './key-ring';

const V1 = generateKeyText('v1');
const V2 = generateKeyText('v2');
const CANARY = 'canary-secret-7f3c2e1d';
const AD = credentialAssociatedData('tenant-a', 'cred-1');

function service(keysText: string): CryptoService {
  return new CryptoService(parseKeyRing(keysText));
}

function flipFirstBit(buffer: Buffer): Buffer {
  const copy = Buffer.from(buffer);
  copy[0] ^= 0x01;
  return copy;
}

function decryptError(crypto: CryptoService, sealed: SealedSecret, associatedData: string): unknown {
  try {
    crypto.decrypt(sealed, associatedData);
  } catch (error) {
    return error;
  }
  throw new Error('decrypt succeeded');
}

describe('CryptoService', () => {
  const crypto = service(V1);

  it('round-trips strings and bytes with the active key', () => {
    const sealed = crypto.encrypt(CANARY, AD);
    expect(sealed.keyVersion).toBe('v1');
    expect(sealed.iv).toHaveLength(12);
    expect(sealed.authTag).toHaveLength(16);
    expect(sealed.ciphertext.toString('utf8')).not.toContain(CANARY);
    expect(crypto.decrypt(sealed, AD).toString('utf8')).toBe(CANARY);

    const bytes = Buffer.from([0, 1, 2, 255]);
    expect(crypto.decrypt(crypto.encrypt(bytes, AD), AD)).toEqual(bytes);
    expect(crypto.decrypt(crypto.encrypt('', AD), AD)).toEqual(Buffer.alloc(0));
  });

  it('uses a fresh IV for every encryption', () => {
    const first = crypto.encrypt(CANARY, AD);
    const second = crypto.encrypt(CANARY, AD);
    expect(first.iv.equals(second.iv)).toBe(false);
    expect(first.ciphertext.equals(second.ciphertext)).toBe(false);
    expect(first.authTag.equals(second.authTag)).toBe(false);
  });

  describe('refuses anything altered', () => {
    const sealed = crypto.encrypt(CANARY, AD);

    it.each<[string, SealedSecret, string]>([
      ['the ciphertext', { ...sealed, ciphertext: flipFirstBit(sealed.ciphertext) }, AD],
      ['a truncated ciphertext', { ...sealed, ciphertext: sealed.ciphertext.subarray(1) }, AD],
      ['the IV', { ...sealed, iv: flipFirstBit(sealed.iv) }, AD],
      ['the IV length', { ...sealed, iv: Buffer.concat([sealed.iv, Buffer.alloc(4)]) }, AD],
      ['the auth tag', { ...sealed, authTag: flipFirstBit(sealed.authTag) }, AD],
      ['a truncated auth tag', { ...sealed, authTag: sealed.authTag.subarray(0, 12) }, AD],
      ['the tenant id', sealed, credentialAssociatedData('tenant-b', 'cred-1')],
      ['the credential id', sealed, credentialAssociatedData('tenant-a', 'cred-2')],
      ['empty associated data', sealed, ''],
    ])('%s', (_case, altered, associatedData) => {
      const error = decryptError(crypto, altered, associatedData);
      expect(error).toBeInstanceOf(DecryptionError);
      expect((error as DecryptionError).message).toBe(
        'Cannot decrypt a value sealed with key v1: ciphertext, IV, tag or associated data do not match',
      );
      expect(inspect(error)).not.toContain(CANARY);
      expect(inspect(error)).not.toContain(V1.slice(3));
    });

    it('the key version', () => {
      const other = service(`${V2},${V1}`);
      const error = decryptError(other, { ...sealed, keyVersion: 'v2' }, AD);
      expect(error).toBeInstanceOf(DecryptionError);
      expect((error as DecryptionError).keyVersion).toBe('v2');
    });
  });

  it('names a key version missing from the ring', () => {
    const sealed = service(V2).encrypt(CANARY, AD);
    const error = decryptError(crypto, sealed, AD);
    expect(error).toBeInstanceOf(UnknownKeyVersionError);
    expect((error as Error).message).toBe(
      'Key version v2 is not in the key ring (known: v1); add it back to GATEWAY_ENCRYPTION_KEYS to read ' +
        'values sealed with it',
    );
  });

  it('reads old rows after a key rotation and rewraps them onto the active key', () => {
    const before = service(V1);
    const oldRow = before.encrypt(CANARY, AD);
    expect(before.needsRewrap(oldRow)).toBe(false);

    const after = service(`${V2},${V1}`);
    expect(after.activeKeyVersion).toBe('v2');
    expect(after.knownKeyVersions()).toEqual(['v2', 'v1']);
    expect(after.decrypt(oldRow, AD).toString('utf8')).toBe(CANARY);
    expect(after.needsRewrap(oldRow)).toBe(true);

    const rewrapped = after.rewrap(oldRow, AD);
    expect(rewrapped.keyVersion).toBe('v2');
    expect(after.needsRewrap(rewrapped)).toBe(false);
    expect(after.decrypt(rewrapped, AD).toString('utf8')).toBe(CANARY);
    expect(decryptError(after, rewrapped, credentialAssociatedData('tenant-b', 'cred-1'))).toBeInstanceOf(
      DecryptionError,
    );

    // Once every row is rewrapped the old key can go.
    expect(service(V2).decrypt(rewrapped, AD).toString('utf8')).toBe(CANARY);
  });

  it('refuses to rewrap a row bound to other associated data', () => {
    const sealed = service(V1).encrypt(CANARY, AD);
    expect(() =>
      service(`${V2},${V1}`).rewrap(sealed, credentialAssociatedData('tenant-a', 'cred-2')),
    ).toThrow(DecryptionError);
  });

  it('keeps the keys out of inspection', () => {
    expect(inspect(crypto, { depth: 10, showHidden: true })).not.toMatch(/<Buffer/);
    expect(JSON.stringify(crypto)).toBe('{"ephemeral":false}');
  });
});

describe('CryptoService.fingerprint', () => {
  it('tells data apart under a key version, and hides the data', () => {
    const crypto = service(V1);
    const fingerprint = crypto.fingerprint(`{"password":"${CANARY}"}`);
    expect(fingerprint).toMatch(/^v1:[A-Za-z0-9_-]{43}$/);
    expect(fingerprint).not.toContain(CANARY);
    expect(crypto.fingerprint(`{"password":"${CANARY}"}`)).toBe(fingerprint);
    expect(crypto.fingerprintMatches(`{"password":"${CANARY}"}`, fingerprint)).toBe(true);
    expect(crypto.fingerprintMatches(`{"password":"other"}`, fingerprint)).toBe(false);
  });

  it('depends on the master key, and still matches after a rotation while the old key is kept', () => {
    const before = service(V1).fingerprint('data');
    expect(service(generateKeyText('v1')).fingerprintMatches('data', before)).toBe(false);
    const rotated = service(`${V2},${V1}`);
    expect(rotated.fingerprintMatches('data', before)).toBe(true);
    expect(rotated.fingerprint('data')).toMatch(/^v2:/);
    expect(service(V2).fingerprintMatches('data', before)).toBe(false);
    expect(rotated.fingerprintMatches('data', 'malformed')).toBe(false);
  });
});

describe('credentialAssociatedData', () => {
  it('binds the tenant and the credential unambiguously', () => {
    expect(credentialAssociatedData('t1', 'c1')).toBe('pipes-gateway/credential/v1\0t1\0c1');
    expect(credentialAssociatedData('a', 'bc')).not.toBe(credentialAssociatedData('ab', 'c'));
  });

  it.each([
    ['', 'c1'],
    ['t1', ''],
    ['t\0x', 'c1'],
    ['t1', 'c\0x'],
  ])('refuses the ids %p and %p', (tenantId, credentialId) => {
    expect(() => credentialAssociatedData(tenantId, credentialId)).toThrow(TypeError);
  });
});
