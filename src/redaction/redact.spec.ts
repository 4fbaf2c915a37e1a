import fc from 'fast-check';
import { REDACTED, redactParsedJson, redactSecrets, redactText, secretValuesOf } from './redact';

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
    expect(redacted.source.objectStorage.connectionString).toBe(
      `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${REDACTED};EndpointSuffix=core.windows.net`,
    );
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
