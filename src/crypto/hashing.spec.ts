import { createHash } from 'node:crypto';
import { matchesDigest, sha256 } from './hashing';

describe('sha256', () => {
  it('hashes strings as UTF-8 and buffers as bytes', () => {
    const expected = createHash('sha256').update('pgw_é', 'utf8').digest();
    expect(sha256('pgw_é')).toEqual(expected);
    expect(sha256(Buffer.from('pgw_é', 'utf8'))).toEqual(expected);
    expect(sha256('x')).toHaveLength(32);
  });
});

describe('matchesDigest', () => {
  it.each([
    ['its own digest', 'secret', sha256('secret'), true],
    ['its bytes', Buffer.from('secret'), sha256('secret'), true],
    ['an empty secret', '', sha256(''), true],
    ['another secret', 'secreT', sha256('secret'), false],
    ['a prefix', 'secret', sha256('secret-longer'), false],
    ['the secret itself instead of a digest', 'secret', Buffer.from('secret'), false],
    ['an empty digest', 'secret', Buffer.alloc(0), false],
    ['a digest too long', 'secret', Buffer.concat([sha256('secret'), Buffer.alloc(1)]), false],
  ])('compares %s', (_case, secret, digest, expected) => {
    expect(matchesDigest(secret, digest)).toBe(expected);
  });
});
