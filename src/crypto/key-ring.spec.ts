import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import { generateKeyText, KeyRing, KeyRingError, parseKeyRing, UnknownKeyVersionError } from './key-ring';

function randomLooking(label: string, bytes: number): Buffer {
  return createHash('sha512').update(label).digest().subarray(0, bytes);
}

const KEY_A = randomLooking('a', 32).toString('base64');
const KEY_B = randomLooking('b', 32).toString('base64');
const URL_KEY = randomLooking('url', 32).toString('base64url');
const SHORT_KEY = randomLooking('short', 16).toString('base64');
const LONG_KEY = randomLooking('long', 33).toString('base64');

/** Every 8-character run of the key material in a key ring text. */
function materialFragments(text: string): string[] {
  const fragments: string[] = [];
  for (const entry of text.split(',')) {
    const material = entry.slice(entry.indexOf(':') + 1).trim();
    for (let start = 0; start + 8 <= material.length; start += 1)
      fragments.push(material.slice(start, start + 8));
  }
  return fragments;
}

describe('parseKeyRing', () => {
  it('makes the first entry active and keeps every version', () => {
    const ring = parseKeyRing(`v2:${KEY_B},v1:${KEY_A}`);
    expect(ring.activeVersion).toBe('v2');
    expect(ring.versions()).toEqual(['v2', 'v1']);
    expect(ring.get('v1')).toEqual(Buffer.from(KEY_A, 'base64'));
    expect(ring.get('v2')).toEqual(Buffer.from(KEY_B, 'base64'));
    expect(ring.has('v1')).toBe(true);
    expect(ring.has('v3')).toBe(false);
  });

  it('tolerates spaces around entries and a trailing newline', () => {
    const ring = parseKeyRing(` v10 : ${KEY_A} ,  v9:${KEY_B}\n`);
    expect(ring.versions()).toEqual(['v10', 'v9']);
  });

  it('names the missing version and the known ones when asked for an absent key', () => {
    const ring = parseKeyRing(`v2:${KEY_B},v1:${KEY_A}`);
    expect(() => ring.get('v3')).toThrow(UnknownKeyVersionError);
    expect(() => ring.get('v3')).toThrow('Key version v3 is not in the key ring (known: v2, v1)');
  });

  it.each([
    ['an empty text', '   ', /^GATEWAY_ENCRYPTION_KEYS must list at least one key$/],
    ['an empty entry in the middle', `v2:${KEY_B},,v1:${KEY_A}`, /entry 2 is empty/],
    ['a trailing comma', `v1:${KEY_A},`, /entry 2 is empty/],
    ['an entry without a version', KEY_A, /entry 1 must be written <version>:<base64 key>/],
    ['a version that is not v + digits', `key1:${KEY_A}`, /entry 1 has a version that is not v followed/],
    ['a version with a suffix', `v1:${KEY_A},v2beta:${KEY_B}`, /entry 2 has a version that is not v/],
    ['an empty key', 'v1:', /key v1 is empty/],
    ['a duplicate version', `v1:${KEY_A},v1:${KEY_B}`, /lists key version v1 more than once/],
    ['a key that is not base64', `v3:${KEY_A.slice(0, 40)}!!!!`, /key v3 is not valid base64/],
    ['a base64url key', `v3:${URL_KEY}`, /key v3 is not valid base64/],
    ['an unpadded key', `v3:${KEY_A.replace(/=+$/, '')}`, /key v3 is not valid base64/],
    ['a short key', `v4:${SHORT_KEY}`, /key v4 must decode to exactly 32 bytes \(got 16\)/],
    ['a long key', `v5:${LONG_KEY}`, /key v5 must decode to exactly 32 bytes \(got 33\)/],
  ])('rejects %s, naming the variable but never the key material', (_case, input, expected) => {
    let error: unknown;
    try {
      parseKeyRing(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(KeyRingError);
    const { message } = error as KeyRingError;
    expect(message).toMatch(/^GATEWAY_ENCRYPTION_KEYS /);
    expect(message).toMatch(expected);
    const shown = `${message}\n${inspect(error)}`;
    for (const fragment of materialFragments(input)) expect(shown).not.toContain(fragment);
  });

  it('names another source when given one', () => {
    expect(() => parseKeyRing('v1:', 'The key file /data/master.key')).toThrow(
      /^The key file \/data\/master.key key v1 is empty$/,
    );
  });
});

describe('KeyRing', () => {
  it('keeps key material out of inspection and JSON', () => {
    const key = Buffer.alloc(32, 0x5a);
    const ring = new KeyRing([{ version: 'v1', key }]);
    const hex = key.toString('hex');
    expect(inspect(ring, { depth: 10, showHidden: true })).not.toContain('5a 5a');
    expect(JSON.stringify(ring)).not.toContain(hex);
    expect(JSON.stringify(ring)).not.toContain('90,90');
  });

  it('copies the keys it is given', () => {
    const key = Buffer.alloc(32, 1);
    const ring = new KeyRing([{ version: 'v1', key }]);
    key.fill(0);
    expect(ring.get('v1')).toEqual(Buffer.alloc(32, 1));
  });

  it('rejects an empty list', () => {
    expect(() => new KeyRing([])).toThrow(KeyRingError);
  });
});

describe('generateKeyText', () => {
  it('makes a random entry that parses', () => {
    const first = generateKeyText();
    const second = generateKeyText('v7');
    expect(first).toMatch(/^v1:[A-Za-z0-9+/]{43}=$/);
    expect(second.startsWith('v7:')).toBe(true);
    expect(first.slice(3)).not.toBe(second.slice(3));
    const ring = parseKeyRing(`${second},${first}`);
    expect(ring.activeVersion).toBe('v7');
    expect(ring.get('v1')).toHaveLength(32);
  });

  it('refuses a malformed version', () => {
    expect(() => generateKeyText('2')).toThrow(/must be v followed by digits/);
  });
});
