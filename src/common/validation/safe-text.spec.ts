import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { validate } from 'class-validator';
import { IsSafeName, unsafeTextReason } from './safe-text';

const SECRET = 'must not hold a secret';
const INVISIBLE = 'must not contain control, bidirectional-override or invisible characters';

describe('unsafeTextReason', () => {
  it.each([
    'alice@example.com',
    'José Núñez',
    '佐藤 花子',
    'Zoë 🙂',
    randomUUID(),
    'auth0|5f7c8ec7c33c6c004bbafe82',
    '00u1abcd2EFGH3ijk4l5',
    'prod org key',
    'HyperDX token: prod',
    'Basic research team',
    'payments-engineers',
    '/org/payments/engineers',
    'CN=Payments,OU=Groups,DC=example,DC=com',
  ])('keeps %s', (text) => {
    expect(unsafeTextReason(text)).toBeNull();
  });

  it.each([
    ['a gateway key', `pgw_AbCdEfGhIjKl_${randomBytes(32).toString('base64url')}`],
    ['a gateway key', `for pgw_AbCdEfGhIjKl_${'x'.repeat(43)} please`],
    ['a gateway key', 'pgw_AbCdEfGhIjKl'],
    ['a JSON Web Token', 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl'],
    ['an Authorization header value', 'Bearer abc123'],
    ['an Authorization header value', 'Basic YWxpY2U6czNjcmV0'],
    ['an Authorization header value', 'Authorization: whatever'],
    ['a URL with user information', 'https://alice:s3cret@db.example.com/x'],
    ['a URL with user information', 'postgres://alice@db.example.com'],
    ['user:password@host credentials', 'alice:s3cret@db.example.com'],
    ['a secret assignment', 'password=hunter2'],
    ['a secret assignment', 'AccountName=x;api_key = 12345'],
    ['a private key', '-----BEGIN RSA PRIVATE KEY-----'],
    ['a long random token', randomBytes(32).toString('base64url')],
    ['a long random token', randomBytes(24).toString('hex')],
    ['a long random token', `AKIA${'Ab1'.repeat(11)}`],
  ])('refuses %s', (what, text) => {
    expect(unsafeTextReason(text)).toBe(`${SECRET} (it looks like ${what})`);
  });

  it.each([
    ['a C0 control', 'a\u0007b'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
    ['a right-to-left override', 'invoice\u202efdp.exe'],
    ['a right-to-left isolate', 'a\u2067b'],
    ['a zero-width space', 'ali\u200bce'],
    ['a zero-width joiner', 'a\u200db'],
    ['a byte order mark', '\ufeffalice'],
    ['a soft hyphen', 'ali\u00adce'],
    ['a line separator', 'a\u2028b'],
    ['a private-use character', 'a\ue000b'],
  ])('refuses %s', (_what, text) => {
    expect(unsafeTextReason(text)).toBe(INVISIBLE);
  });

  it('refuses a lone surrogate', () => {
    expect(unsafeTextReason('a\ud800b')).toBe('must be well-formed Unicode text (no lone surrogates)');
  });

  it('refuses any random key the gateway or a provider would issue, wherever it sits in the text', () => {
    const keys = fc.oneof(
      fc
        .uint8Array({ minLength: 32, maxLength: 64 })
        .map((bytes) => Buffer.from(bytes).toString('base64url')),
      fc.uint8Array({ minLength: 20, maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('hex')),
      fc
        .uint8Array({ minLength: 32, maxLength: 32 })
        .map((bytes) => `pgw_AbCdEfGhIjKl_${Buffer.from(bytes).toString('base64url')}`),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), keys, fc.string({ maxLength: 20 }), (before, key, after) => {
        // A base64 key in one case only is rare but possible, and reads like a word.
        fc.pre(/^[0-9a-f]+$/.test(key) || key.startsWith('pgw_') || (/[a-z]/.test(key) && /[A-Z]/.test(key)));
        expect(unsafeTextReason(`${before} ${key} ${after}`)).not.toBeNull();
      }),
      { numRuns: 500 },
    );
  });
});

class Named {
  @IsSafeName(1, 20)
  name!: unknown;
}

async function messagesFor(name: unknown): Promise<string[]> {
  const target = Object.assign(new Named(), { name });
  return (await validate(target)).flatMap((error) => Object.values(error.constraints ?? {}));
}

describe('IsSafeName', () => {
  it('accepts a plain name and counts characters, not UTF-16 units', async () => {
    expect(await messagesFor('prod key')).toEqual([]);
    expect(await messagesFor('🙂'.repeat(20))).toEqual([]);
  });

  it.each([
    [undefined, 'is required'],
    [42, 'must be a string'],
    ['', 'must not be empty'],
    ['x'.repeat(21), 'must be at most 20 characters long'],
    ['a\u202eb', INVISIBLE],
    ['pgw_AbCdEfGh', `${SECRET} (it looks like a gateway key)`],
  ])('refuses %p with one message', async (name, message) => {
    expect(await messagesFor(name)).toEqual([message]);
  });
});
