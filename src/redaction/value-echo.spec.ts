import { redactParsedJson } from './redact';
import { SecretValueMatcher } from './secret-value-matcher';
import { EchoNoting, vaultValuesCarried } from './value-echo';

const PASSWORD = 'hunter2-but-longer';
const vault = new SecretValueMatcher([PASSWORD, 'another-held-value']);

describe('vaultValuesCarried', () => {
  it('finds vault values in plain strings and field names, with their paths', () => {
    const carried = vaultValuesCarried(
      {
        name: `pipe ${PASSWORD}`,
        destination: { columns: [{ name: 'id' }, { name: PASSWORD }] },
        settings: { [PASSWORD]: 1 },
      },
      vault,
    );
    expect([...carried.keys()]).toEqual([PASSWORD]);
    expect(carried.get(PASSWORD)).toEqual(['name', 'destination.columns[1].name', 'settings.[redacted]']);
  });

  it('leaves out secret places: secret fields, secret objects, references, URL passwords', () => {
    const carried = vaultValuesCarried(
      {
        source: {
          kafka: {
            credentials: { username: PASSWORD, password: PASSWORD },
            brokers: `kafka://orders:${PASSWORD}@b-1:9092`,
          },
          objectStorage: { connectionString: PASSWORD, accessKey: { $secret: 'blob' } },
        },
      },
      vault,
    );
    expect(carried.size).toBe(0);
  });
});

describe('EchoNoting', () => {
  it('notes the carried values an answer was scrubbed of, and only those', () => {
    const carried = vaultValuesCarried({ columns: [PASSWORD], other: 'plain' }, vault);
    const noting = new EchoNoting(vault, carried);
    const answer = redactParsedJson(
      { result: { columns: [PASSWORD], note: 'another-held-value' } },
      [],
      noting,
    );
    expect(answer).toEqual({ result: { columns: ['[redacted]'], note: '[redacted]' } });
    expect(noting.echoedPaths()).toEqual(['columns[0]']);
  });

  it('notes nothing when the answer does not quote the value', () => {
    const noting = new EchoNoting(vault, vaultValuesCarried({ name: PASSWORD }, vault));
    redactParsedJson({ result: { name: 'renamed' } }, [], noting);
    expect(noting.echoedPaths()).toEqual([]);
  });
});
