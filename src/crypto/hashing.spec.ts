import { createHash } from 'node:crypto';
import { sha256, timingSafeEqualBuffers } from './hashing';

describe('sha256', () => {
  it('hashes strings as UTF-8 and buffers as bytes', () => {
    const expected = createHash('sha256').update('pgw_é', 'utf8').digest();
    expect(sha256('pgw_é')).toEqual(expected);
    expect(sha256(Buffer.from('pgw_é', 'utf8'))).toEqual(expected);
    expect(sha256('x')).toHaveLength(32);
  });
});

describe('timingSafeEqualBuffers', () => {
  it.each([
    ['equal buffers', Buffer.from('secret'), Buffer.from('secret'), true],
    ['a string and its bytes', 'secret', Buffer.from('secret'), true],
    ['two empty values', '', Buffer.alloc(0), true],
    ['different contents', 'secret', 'secreT', false],
    ['a prefix', 'secret', 'secret-longer', false],
    ['different lengths', Buffer.alloc(1), Buffer.alloc(64), false],
  ])('compares %s', (_case, a, b, expected) => {
    expect(timingSafeEqualBuffers(a, b)).toBe(expected);
  });
});
