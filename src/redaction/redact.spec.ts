import fc from 'fast-check';
import { canonicalJson } from '../common/canonical-json';
import {
  JsonTooDeepError,
  MAX_PARSED_JSON_DEPTH,
  REDACTED,
  redactedCanonicalJson,
  redactParsedJson,
  redactSecrets,
  redactText,
  secretValuesOf,
} from './redact';

const CANARY = 'CANARY-5f1e9c-secret';

describe('redactSecrets', () => {
  it('replaces every secret of a pipe create spec and keeps the shape', () => {
    const spec = {
      name: 'orders',
      source: {
        kafka: {
          brokers: 'b1:9092',
          credentials: { username: 'svc', password: CANARY },
          schemaRegistry: { url: 'https://registry', credentials: { username: 'u', password: CANARY } },
        },
        objectStorage: {
          url: 's3://bucket/*.json',
          accessKey: { accessKeyId: 'AKIA', secretKey: CANARY },
          connectionString: `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${CANARY};EndpointSuffix=core.windows.net`,
        },
        kinesis: { streamName: 's', accessKey: { accessKeyId: 'AKIA', secretKey: CANARY } },
        postgres: { host: 'db', credentials: { username: 'u', password: CANARY } },
      },
    };
    const redacted = redactSecrets(spec);
    expect(JSON.stringify(redacted)).not.toContain(CANARY);
    expect(redacted.source.kafka.credentials).toEqual({ username: REDACTED, password: REDACTED });
    expect(redacted.source.kafka.brokers).toBe('b1:9092');
    expect(redacted.source.objectStorage.accessKey).toEqual({ accessKeyId: REDACTED, secretKey: REDACTED });
    // A connection string is a secret as a whole, whatever else it names.
    expect(redacted.source.objectStorage.connectionString).toBe(REDACTED);
    expect(spec.source.kafka.credentials.password).toBe(CANARY);
  });

  it('redacts SAS signatures, URL passwords and gateway keys in any string', () => {
    expect(
      redactText(`BlobEndpoint=https://a.blob;SharedAccessSignature=sv=2022&sig=${CANARY}`),
    ).not.toContain(CANARY);
    expect(redactText(`https://a.blob/c?sv=2022&sig=${CANARY}`)).not.toContain(CANARY);
    expect(redactText(`postgres://user:${CANARY}@db:5432/x`)).toBe(`postgres://user:${REDACTED}@db:5432/x`);
    expect(redactText('see pgw_abcdefgh12345678_ZZZZ in the log')).toBe(`see ${REDACTED} in the log`);
    expect(redactText('https://example.com/path@v2')).toBe('https://example.com/path@v2');
  });

  it('redacts secret-named fields at any depth, case-insensitively', () => {
    const redacted = redactSecrets({
      a: [{ b: { Authorization: 'Basic x', keySecret: CANARY, TOKEN: CANARY } }],
    });
    expect(JSON.stringify(redacted)).not.toContain(CANARY);
    expect(redacted.a[0].b.Authorization).toBe(REDACTED);
  });

  it('never lets a planted password through, whatever surrounds it', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.string({ minLength: 1 }),
        fc.constantFrom('password', 'keySecret', 'token', 'secretKey'),
        (noise, secret, field) => {
          const planted = { noise, nested: { [field]: `${CANARY}${secret}` } };
          expect(JSON.stringify(redactSecrets(planted))).not.toContain(CANARY);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('redactedCanonicalJson', () => {
  it('is the canonical JSON of the redacted copy, for any parsed JSON', () => {
    const withSecrets = fc.record({
      noise: fc.jsonValue(),
      numbered: fc.dictionary(fc.nat().map(String), fc.jsonValue(), { maxKeys: 4 }),
      credentials: fc.record({ password: fc.string(), user: fc.string() }),
      reference: fc.record({ $secret: fc.string({ minLength: 1 }) }),
    });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), withSecrets), (value) => {
        const parsed: unknown = JSON.parse(JSON.stringify(value));
        expect(redactedCanonicalJson(parsed)).toBe(canonicalJson(redactSecrets(parsed)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('secret field names', () => {
  // Every name the redactor promises to know, including those of the pipes service's real shapes.
  const SECRET_FIELD_NAMES = [
    'password',
    'passwd',
    'pwd',
    'secret',
    'secretKey',
    'keySecret',
    'clientSecret',
    'client_secret',
    'token',
    'accessToken',
    'refreshToken',
    'sasToken',
    'sas',
    'apiKey',
    'x-api-key',
    'privateKey',
    'authorization',
    'Proxy-Authorization',
    'cookie',
    'Set-Cookie',
    'connectionString',
    'accountKey',
    'sharedAccessKey',
    'serviceAccountKey',
    'serviceAccountFile',
    'serviceAccountJson',
    'passphrase',
    'schemaRegistryPassword',
  ];

  it.each(SECRET_FIELD_NAMES)('redacts a field named %s wherever it appears', (name) => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ minLength: 1 }), (noise, suffix) => {
        const planted = { noise, deep: [{ unknownToAnySchema: { [name]: `${CANARY}${suffix}` } }] };
        expect(JSON.stringify(redactSecrets(planted))).not.toContain(CANARY);
        expect(secretValuesOf(planted)).toContain(`${CANARY}${suffix}`);
      }),
      { numRuns: 30 },
    );
  });

  it('redacts every leaf of credentials and accessKey objects, of any credential form', () => {
    const forms = [
      { username: 'u', password: CANARY },
      { accessKeyId: 'AKIA', secretKey: CANARY },
      { connectionString: `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKey=${CANARY}` },
      { certificate: '-----BEGIN CERTIFICATE-----', privateKey: CANARY },
      { serviceAccountFile: CANARY },
    ];
    for (const credentials of forms) {
      const redacted = redactSecrets({
        source: { kafka: { credentials }, kinesis: { accessKey: credentials } },
      });
      expect(JSON.stringify(redacted)).not.toContain(CANARY);
    }
  });

  it('leaves plain fields alone', () => {
    const plain = { username: 'u', tokenCount: 3, accessKeyId: 'AKIA', certificate: 'pem', secretName: 'x' };
    expect(redactSecrets({ plain })).toEqual({ plain: { ...plain, secretName: 'x' } });
  });
});

describe('secret references', () => {
  it('keeps a reference to a vault secret in what the gateway keeps, under any field', () => {
    const spec = {
      source: { kafka: { credentials: { $secret: 'kafka-prod' }, password: { $secret: 'p' } } },
    };
    expect(redactSecrets(spec)).toEqual(spec);
  });

  it('redacts a lookalike in an upstream answer, and anything more than the reference', () => {
    expect(redactParsedJson({ password: { $secret: CANARY } })).toEqual({ password: { $secret: REDACTED } });
    expect(redactSecrets({ credentials: { $secret: 'x', password: CANARY } })).toEqual({
      credentials: { $secret: REDACTED, password: REDACTED },
    });
  });
});

describe('secrets inside text', () => {
  it.each([
    [
      'a URL password holding @',
      `https://user:${CANARY}@X9@db.example.com/x`,
      `https://user:${REDACTED}@db.example.com/x`,
    ],
    [
      'a URL password holding : and @',
      `postgres://app:a:b@${CANARY}@db:5432/x`,
      `postgres://app:${REDACTED}@db:5432/x`,
    ],
    [
      'a broker list with user:password@host and no scheme',
      `alice:${CANARY}@b-1.example.com:9092,b-2:9092`,
      `alice:${REDACTED}@b-1.example.com:9092,b-2:9092`,
    ],
    [
      'AccountKey with spaces round =',
      `AccountName=a; AccountKey = ${CANARY};EndpointSuffix=x`,
      `AccountName=a; AccountKey = ${REDACTED};EndpointSuffix=x`,
    ],
    [
      'a quoted AccountKey holding ;',
      `AccountName=a;AccountKey="${CANARY};tail";EndpointSuffix=x`,
      `AccountName=a;AccountKey=${REDACTED};EndpointSuffix=x`,
    ],
    [
      'a single-quoted Password',
      `Server=db;Password='${CANARY};x';Database=d`,
      `Server=db;Password=${REDACTED};Database=d`,
    ],
    [
      'a Bearer token',
      `upstream said: Authorization: Bearer ${CANARY}abcdef`,
      `upstream said: Authorization: Bearer ${REDACTED}`,
    ],
  ])('redacts %s', (_name, text, expected) => {
    expect(redactText(text)).toBe(expected);
    expect(secretValuesOf({ text }).join(' ')).not.toBe('');
  });

  it('finds the whole password of such text to redact it verbatim elsewhere', () => {
    const known = secretValuesOf({
      url: `https://user:p@ss-${CANARY}@db/x`,
      cs: `AccountKey="${CANARY};tail"`,
    });
    expect(known).toEqual(expect.arrayContaining([`p@ss-${CANARY}`, `${CANARY};tail`]));
  });

  it('keeps text without credentials as it is', () => {
    for (const text of [
      'https://example.com/path@v2',
      'mailbox bob@example.com',
      'ratio 3:4 at noon',
      'postgres://db.example.com:5432/x',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });
});

describe('secretValuesOf and redaction of known values', () => {
  const spec = {
    name: 'orders',
    source: {
      kafka: { brokers: 'b1:9092', credentials: { username: 'svc-orders', password: CANARY } },
      postgres: { url: 'postgres://app:p%40ss-word@db:5432/x' },
      objectStorage: { connectionString: 'AccountName=acct;AccountKey=acct-key-value;' },
    },
  };

  it('collects secret fields, connection-string keys and URL passwords, but not usernames', () => {
    expect(secretValuesOf(spec, ['credential-secret'])).toEqual([
      'AccountName=acct;AccountKey=acct-key-value;',
      'CANARY-5f1e9c-secret',
      'credential-secret',
      'acct-key-value',
      'p%40ss-word',
      'p@ss-word',
    ]);
  });

  it('ignores values too short to search for', () => {
    expect(secretValuesOf({ password: 'abc' }, ['xyz'])).toEqual([]);
  });

  it('finds a known secret quoted anywhere, under any field name', () => {
    const known = secretValuesOf(spec);
    const upstreamError = {
      error: `kafka authentication failed: password ${CANARY} rejected`,
      details: [`tried ${CANARY}${CANARY}`, 'p@ss-word is wrong', 'nothing here'],
    };
    const redacted = redactSecrets(upstreamError, known);
    expect(JSON.stringify(redacted)).not.toMatch(/CANARY|p@ss-word|acct-key-value/);
    expect(redacted.error).toBe(`kafka authentication failed: password ${REDACTED} rejected`);
    expect(redacted.details[2]).toBe('nothing here');
  });

  it('never lets a known secret through, whatever text surrounds it', () => {
    // Characters of "[redacted]" are left out so that a match cannot be formed from the marker.
    const secrets = fc.string({ minLength: 4 }).filter((s) => ![...s].some((c) => REDACTED.includes(c)));
    fc.assert(
      fc.property(fc.string(), fc.string(), secrets, (before, after, secret) => {
        const known = secretValuesOf({ password: secret });
        expect(redactText(`${before}${secret}${after}`, known)).not.toContain(secret);
      }),
      { numRuns: 300 },
    );
  });

  it('classifies field names the same however many it has seen before', () => {
    const body = { Password: 'a-secret', 'x-api-key': 'b-secret', credentials: { user: 'c-secret' } };
    const expected = {
      Password: REDACTED,
      'x-api-key': REDACTED,
      credentials: { user: REDACTED },
    };
    expect(redactSecrets(body)).toEqual(expected);
    // Past the number of names remembered: the classification starts over, not wrong.
    for (let i = 0; i < 10_050; i++) redactSecrets({ [`field${i}`]: 'plain' });
    expect(redactSecrets(body)).toEqual(expected);
    expect(redactSecrets({ field1: 'plain', password: 'x' })).toEqual({
      field1: 'plain',
      password: REDACTED,
    });
  });

  it('redacts parsed JSON in place exactly as it redacts a copy', () => {
    const key = fc.oneof(
      fc.string(),
      fc.constantFrom('password', 'Api-Key', 'credentials', 'accessKey', 'url', 'note', '__proto__'),
    );
    const text = fc.oneof(
      fc.string(),
      fc.constantFrom(
        `a ${CANARY} b`,
        'postgres://u:pw-123@db/x',
        'AccountKey=abc123;x=1',
        'pgw_abcdefghijk',
      ),
    );
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(key, tie('value'), { maxKeys: 5 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const text = JSON.stringify(value);
        const parsed: unknown = JSON.parse(text);
        const copied = redactSecrets(JSON.parse(text) as unknown, [CANARY]);
        const redacted = redactParsedJson(parsed, [CANARY]);
        if (parsed !== null && typeof parsed === 'object') expect(redacted).toBe(parsed);
        expect(JSON.stringify(redacted)).toBe(JSON.stringify(copied));
        expect(JSON.stringify(redacted)).not.toContain(CANARY);
      }),
      { numRuns: 500 },
    );
  });
});

describe('redactParsedJson on deep JSON', () => {
  /** `levels` objects, each the only field of the one around it, with a password at the bottom. */
  const nested = (levels: number): unknown =>
    JSON.parse(`${'{"a":'.repeat(levels - 1)}{"password":"${CANARY}"}${'}'.repeat(levels - 1)}`);

  it(`redacts JSON nested ${MAX_PARSED_JSON_DEPTH} levels deep`, () => {
    expect(JSON.stringify(redactParsedJson(nested(MAX_PARSED_JSON_DEPTH)))).not.toContain(CANARY);
  });

  it('refuses JSON nested deeper with its own error, far below where the stack would give out', () => {
    expect(() => redactParsedJson(nested(MAX_PARSED_JSON_DEPTH + 1))).toThrow(JsonTooDeepError);
    expect(() => redactParsedJson(nested(200_000))).toThrow(
      `JSON nested more than ${MAX_PARSED_JSON_DEPTH} levels deep`,
    );
  });
});
