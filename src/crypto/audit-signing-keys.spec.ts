import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { AuditSigningKeys, datedKeyId, generateSigningKeyText, parseSigningKeys } from './audit-signing-keys';
import { KeyRingError } from './key-ring';
import { loadSigningKeys, SIGNING_KEY_FILE } from './load-key-ring';

const der = (type: 'ed25519' | 'rsa') =>
  (type === 'rsa'
    ? generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey
    : generateKeyPairSync('ed25519').privateKey
  )
    .export({ format: 'der', type: 'pkcs8' })
    .toString('base64');

describe('AUDIT_SIGNING_KEYS', () => {
  it('reads <kid>:<base64 PKCS#8 DER>[,…], the first signing, every one published', async () => {
    const keys = new AuditSigningKeys(
      parseSigningKeys(`${generateSigningKeyText('k2')}, ${generateSigningKeyText('k1')}`),
    );
    expect(keys.activeKid).toBe('k2');
    const { keys: published } = keys.jwks();
    expect(published).toEqual([
      {
        kty: 'OKP',
        crv: 'Ed25519',
        x: expect.stringMatching(/^[\w-]{43}$/),
        kid: 'k2',
        alg: 'EdDSA',
        use: 'sig',
      },
      expect.objectContaining({ kid: 'k1' }),
    ]);
    const jws = await keys.sign({ seq: 1 });
    const [header, payload, signature] = jws.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({
      alg: 'EdDSA',
      kid: 'k2',
      typ: 'pipes-gateway.audit-checkpoint',
    });
    const publicKey = createPublicKey({ key: { ...published[0] }, format: 'jwk' });
    expect(
      verify(null, Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url')),
    ).toBe(true);
    // Neither an inspected nor a serialised key ring shows key material.
    expect(inspect(keys, { depth: 10, showHidden: true })).not.toMatch(/KeyObject|<Buffer/);
    expect(JSON.stringify(keys)).not.toMatch(/MC4CAQAw/);
  });

  it.each([
    ['', /must list at least one key/],
    [`${generateSigningKeyText('k1')},`, /entry 2 is empty/],
    ['no-colon', /entry 1 must be written <key id>:/],
    [`bad id!:${der('ed25519')}`, /entry 1 must be written <key id>:/],
    [`k1:${der('ed25519')},k1:${der('ed25519')}`, /lists key id k1 more than once/],
    ['k1:not base64!', /key k1 is not valid base64/],
    ['k1:AAAA', /key k1 is not a PKCS#8 DER private key/],
    [`k1:${der('rsa')}`, /key k1 is a rsa key, not Ed25519/],
  ])('refuses %p, naming the entry and never the key', (text, message) => {
    let error: unknown;
    try {
      parseSigningKeys(text);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(KeyRingError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('MC4CAQAw');
  });

  it('names a new key by the day, and refuses a key id that could not be one', () => {
    expect(datedKeyId(new Date('2026-11-29T10:00:00Z'))).toBe('audit-2026-11-29');
    expect(() => generateSigningKeyText('no spaces')).toThrow(RangeError);
  });

  describe('loadSigningKeys', () => {
    let dataDir: string;
    beforeEach(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'pipes-gateway-signing-'));
    });
    afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
    const warn = { warn: jest.fn() };

    it('refuses to start in production without them', () => {
      expect(() => loadSigningKeys({ keysText: null, env: 'production', dataDir }, warn)).toThrow(
        /^AUDIT_SIGNING_KEYS must be set in production, e\.g\. .*keys new-signing-key$/,
      );
    });

    it('generates one into the data folder outside production, and keeps it', () => {
      const first = loadSigningKeys({ keysText: null, env: 'development', dataDir }, warn);
      const path = join(dataDir, SIGNING_KEY_FILE);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(readFileSync(path, 'utf8')).toMatch(/^audit-\d{4}-\d\d-\d\d:[A-Za-z0-9+/=]+\n$/);
      const again = loadSigningKeys({ keysText: null, env: 'development', dataDir }, warn);
      expect(again.jwks()).toEqual(first.jwks());
      expect(warn.warn).toHaveBeenCalledWith(expect.stringContaining('development audit signing key'));
    });

    it('keeps one in memory with an in-memory database, and configured keys win', () => {
      const ephemeral = loadSigningKeys({ keysText: null, env: 'test', dataDir: 'memory://' }, warn);
      expect(ephemeral.ephemeral).toBe(true);
      const configured = loadSigningKeys(
        { keysText: generateSigningKeyText('mine'), env: 'production', dataDir },
        warn,
      );
      expect(configured.activeKid).toBe('mine');
    });
  });
});
