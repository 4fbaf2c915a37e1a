import { ifMatchHeader, onBehalfOfHeader, tenantIdHeader } from './request-headers';
import { validationErrorsOf } from '../../test/fixtures/dto-validation';

/** A header value as Node hands it over: each byte on the wire one ISO-8859-1 character. */
function asReceived(bytes: Buffer): string {
  return bytes.toString('latin1');
}

function read(value: string): string | null {
  return onBehalfOfHeader(value, ['X-On-Behalf-Of', value]);
}

describe('onBehalfOfHeader', () => {
  it('is null when the header is absent', () => {
    expect(onBehalfOfHeader(undefined, [])).toBeNull();
  });

  it('keeps an ASCII identifier as sent', () => {
    expect(read('alice@example.com')).toBe('alice@example.com');
  });

  it.each(['José Núñez', 'Michał Żółw', '佐藤 花子', 'Zoë 🙂'])('reads %s sent as UTF-8', (name) => {
    expect(read(asReceived(Buffer.from(name, 'utf8')))).toBe(name);
  });

  it('reads bytes that are not UTF-8 as ISO-8859-1', () => {
    expect(read(asReceived(Buffer.from([0x4a, 0x6f, 0x73, 0xe9])))).toBe('José');
  });

  it('counts the limit of 128 in characters, not bytes', () => {
    const name = 'ł'.repeat(128);
    expect(read(asReceived(Buffer.from(name, 'utf8')))).toBe(name);
    expect(validationErrorsOf(() => read(asReceived(Buffer.from(`${name}ł`, 'utf8'))))).toEqual([
      { path: 'header:X-On-Behalf-Of', message: 'must be 1 to 128 characters' },
    ]);
  });

  it('refuses an empty value', () => {
    expect(validationErrorsOf(() => read(''))).toEqual([
      { path: 'header:X-On-Behalf-Of', message: 'must be 1 to 128 characters' },
    ]);
  });

  it.each([
    ['a tab', 'alice\tbob'],
    ['a C1 control sent as UTF-8', asReceived(Buffer.from('alice\u0085', 'utf8'))],
    ['a C1 control byte', asReceived(Buffer.from([0x61, 0x85]))],
    ['a right-to-left override sent as UTF-8', asReceived(Buffer.from('alice\u202egnp.exe', 'utf8'))],
    ['a zero-width space sent as UTF-8', asReceived(Buffer.from('ali\u200bce', 'utf8'))],
  ])('refuses %s', (_case, value) => {
    expect(validationErrorsOf(() => read(value))).toEqual([
      {
        path: 'header:X-On-Behalf-Of',
        message: 'must not contain control, bidirectional-override or invisible characters',
      },
    ]);
  });

  it.each([
    'user:alice@example.com',
    'user-sub:alice@example.com',
    'User:alice',
    'key:3f1e2d4c-0000-4000-8000-000000000000',
    'platform',
    'Gateway',
    'cli',
    'sandbox',
  ])('refuses %s, written like an actor the gateway records', (value) => {
    expect(validationErrorsOf(() => read(value))).toEqual([
      {
        path: 'header:X-On-Behalf-Of',
        message: expect.stringMatching(/^must name the person as the frontend knows them, not in a form/),
      },
    ]);
  });

  it.each(['platform team', 'keys@example.com', 'gatewayadmin'])(
    'keeps %s, which only starts alike',
    (value) => {
      expect(read(value)).toBe(value);
    },
  );

  it('refuses a gateway key, naming what it looks like', () => {
    expect(validationErrorsOf(() => read(`pgw_AbCdEfGhIjKl_${'x'.repeat(43)}`))).toEqual([
      { path: 'header:X-On-Behalf-Of', message: 'must not hold a secret (it looks like a gateway key)' },
    ]);
  });
});

describe('tenantIdHeader', () => {
  it('is null when absent and lower-cases a UUID', () => {
    expect(tenantIdHeader(undefined)).toBeNull();
    expect(tenantIdHeader('3F1E2D4C-0000-4000-8000-000000000000')).toBe(
      '3f1e2d4c-0000-4000-8000-000000000000',
    );
  });

  it.each([['not-a-uuid'], ['3f1e2d4c-0000-4000-8000-000000000000, 3f1e2d4c-0000-4000-8000-000000000001']])(
    'refuses %s',
    (value) => {
      expect(validationErrorsOf(() => tenantIdHeader(value))).toEqual([
        { path: 'header:X-Tenant-Id', message: 'must be a tenant id (a UUID), sent once' },
      ]);
    },
  );

  it('refuses the header sent twice, which Node would join into one value', () => {
    expect(
      validationErrorsOf(() =>
        onBehalfOfHeader('alice, bob', ['X-On-Behalf-Of', 'alice', 'x-on-behalf-of', 'bob']),
      ),
    ).toEqual([{ path: 'header:X-On-Behalf-Of', message: 'must be sent once' }]);
  });
});

describe('ifMatchHeader', () => {
  it.each([
    '"5d41402abc4b2a76"',
    'W/"5d41402abc4b2a76"',
    '*',
    '"a", "b"',
    '"a",W/"b",*',
    '""',
    '"a,b"',
    asReceived(Buffer.from('"\u00e9tag"', 'utf8')),
  ])('takes %s as it is', (value) => {
    expect(ifMatchHeader(value)).toBe(value);
  });

  it.each([
    ['an unquoted tag', '5d41402abc4b2a76'],
    ['a tag quoted on one side', '"5d41402abc4b2a76'],
    ['single quotes', "'5d41402abc4b2a76'"],
    ['a weak mark without quotes', 'W/5d41402abc4b2a76'],
    ['a space inside the quotes', '"5d41 402a"'],
    ['text after the tag', '"x"%0D%0ASet-Cookie: a=b'],
    ['a list with an unquoted member', '"a", b'],
    ['an empty value', ''],
  ])('refuses %s, saying how to quote it', (_what, value) => {
    const errors = validationErrorsOf(() => ifMatchHeader(value));
    expect(errors).toEqual([
      { path: 'header:If-Match', message: expect.stringContaining('entity tags in double quotes') },
    ]);
  });

  it('refuses a value over 1024 characters by its length', () => {
    expect(validationErrorsOf(() => ifMatchHeader(`"${'e'.repeat(1023)}"`))).toEqual([
      { path: 'header:If-Match', message: 'must be at most 1024 characters long' },
    ]);
  });
});
