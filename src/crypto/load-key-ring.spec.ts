import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyText, KeyRingError, parseKeyRing } from './key-ring';
import { AUDIT_CHAIN_KEYS, DEV_KEY_FILE, isEphemeralKeyRing, loadKeyRing } from './load-key-ring';

describe('loadKeyRing', () => {
  let dataDir: string;
  const logger = { warn: jest.fn() };

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'pipes-gateway-crypto-'));
    logger.warn.mockReset();
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('uses configured keys in any environment, without touching the data folder', () => {
    const keysText = `${generateKeyText('v2')},${generateKeyText('v1')}`;
    for (const env of ['development', 'test', 'production'] as const) {
      const ring = loadKeyRing({ keysText, env, dataDir }, logger);
      expect(ring.versions()).toEqual(['v2', 'v1']);
    }
    expect(readdirSync(dataDir)).toEqual([]);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('stops a start with malformed keys, even outside production', () => {
    for (const env of ['development', 'production'] as const) {
      expect(() => loadKeyRing({ keysText: 'v1:not-a-key', env, dataDir }, logger)).toThrow(
        /^GATEWAY_ENCRYPTION_KEYS key v1 is not valid base64/,
      );
    }
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('refuses to start in production without keys', () => {
    expect(() => loadKeyRing({ keysText: null, env: 'production', dataDir }, logger)).toThrow(KeyRingError);
    expect(() => loadKeyRing({ keysText: null, env: 'production', dataDir }, logger)).toThrow(
      /^GATEWAY_ENCRYPTION_KEYS must be set in production/,
    );
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('generates a 0600 development key file once and reuses it', () => {
    const nested = join(dataDir, 'not', 'yet', 'there');
    const first = loadKeyRing({ keysText: null, env: 'development', dataDir: nested }, logger);
    const path = join(nested, DEV_KEY_FILE);
    const content = readFileSync(path, 'utf8');
    expect(content).toMatch(/^v1:[A-Za-z0-9+/]{43}=\n$/);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(first.versions()).toEqual(['v1']);
    expect(first.get('v1')).toEqual(parseKeyRing(content).get('v1'));

    const second = loadKeyRing({ keysText: null, env: 'development', dataDir: nested }, logger);
    expect(readFileSync(path, 'utf8')).toBe(content);
    expect(second.get('v1')).toEqual(first.get('v1'));

    expect(logger.warn).toHaveBeenCalledTimes(2);
    const [generated, reused] = logger.warn.mock.calls.map(([message]) => message as string);
    expect(generated).toMatch(/^Generated the development master key .*master\.key: for development only/);
    expect(reused).toMatch(/^Using the development master key/);
    for (const message of [generated, reused]) {
      expect(message).toContain('GATEWAY_ENCRYPTION_KEYS=v1:<base64 of 32 random bytes>');
      expect(message).toContain("randomBytes(32).toString('base64')");
      expect(message).not.toContain(content.trim().slice(3));
    }
  });

  it('generates the development key in the test environment too', () => {
    loadKeyRing({ keysText: null, env: 'test', dataDir }, logger);
    expect(readdirSync(dataDir)).toEqual([DEV_KEY_FILE]);
  });

  it('keeps a key in memory, and writes no file, when the database is in memory', () => {
    const cwdBefore = readdirSync(process.cwd());
    const first = loadKeyRing({ keysText: null, env: 'test', dataDir: 'memory://' }, logger);
    const second = loadKeyRing({ keysText: null, env: 'development', dataDir: 'memory://gateway' }, logger);
    expect(first.versions()).toEqual(['v1']);
    expect(first.get('v1')).toHaveLength(32);
    expect(second.get('v1').equals(first.get('v1'))).toBe(false);
    expect(readdirSync(process.cwd())).toEqual(cwdBefore);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('names the development key file, not the key, when the file is damaged', () => {
    const path = join(dataDir, DEV_KEY_FILE);
    writeFileSync(path, 'v1:c2hvcnQ=\n', { mode: 0o600 });
    expect(() => loadKeyRing({ keysText: null, env: 'development', dataDir }, logger)).toThrow(
      `The development key file ${path} (used because GATEWAY_ENCRYPTION_KEYS is not set) key v1 must ` +
        'decode to exactly 32 bytes (got 5)',
    );
  });

  describe('for the audit chain keys', () => {
    const purpose = AUDIT_CHAIN_KEYS;

    it('reads AUDIT_CHAIN_KEYS, naming it in errors', () => {
      const keysText = `${generateKeyText('v2')},${generateKeyText('v1')}`;
      expect(loadKeyRing({ keysText, env: 'production', dataDir, purpose }, logger).versions()).toEqual([
        'v2',
        'v1',
      ]);
      expect(() => loadKeyRing({ keysText: 'v1:YWJj', env: 'production', dataDir, purpose }, logger)).toThrow(
        /^AUDIT_CHAIN_KEYS key v1 must decode to exactly 32 bytes/,
      );
      expect(() => loadKeyRing({ keysText: null, env: 'production', dataDir, purpose }, logger)).toThrow(
        /^AUDIT_CHAIN_KEYS must be set in production/,
      );
    });

    it('keeps a development key of its own beside the master key', () => {
      const chain = loadKeyRing({ keysText: null, env: 'development', dataDir, purpose }, logger);
      const master = loadKeyRing({ keysText: null, env: 'development', dataDir }, logger);
      expect(readdirSync(dataDir).sort()).toEqual(['audit-chain.key', DEV_KEY_FILE]);
      expect(chain.get('v1').equals(master.get('v1'))).toBe(false);
      expect(logger.warn.mock.calls[0][0]).toMatch(
        /^Generated the development audit chain key .*audit-chain\.key/,
      );
      expect(logger.warn.mock.calls[0][0]).toContain('AUDIT_CHAIN_KEYS=v1:<base64 of 32 random bytes>');
    });
  });
});

describe('isEphemeralKeyRing', () => {
  it('is a ring generated in memory for an in-memory database, outside production', () => {
    expect(isEphemeralKeyRing({ keysText: null, env: 'test', dataDir: 'memory://' })).toBe(true);
    expect(isEphemeralKeyRing({ keysText: generateKeyText('v1'), env: 'test', dataDir: 'memory://' })).toBe(
      false,
    );
    expect(isEphemeralKeyRing({ keysText: null, env: 'development', dataDir: './data' })).toBe(false);
  });
});
