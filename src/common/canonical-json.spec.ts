import fc from 'fast-check';
import { canonicalJson } from './canonical-json';

/** The definition: a deep copy with sorted keys, stringified. */
function reference(value: unknown): string {
  const copy = (inner: unknown): unknown => {
    if (Array.isArray(inner)) return inner.map(copy);
    if (inner !== null && typeof inner === 'object' && !(inner instanceof Date)) {
      return Object.fromEntries(
        Object.keys(inner)
          .sort()
          .map((key) => [key, copy((inner as Record<string, unknown>)[key])]),
      );
    }
    return inner;
  };
  return JSON.stringify(copy(value));
}

describe('canonicalJson', () => {
  it('sorts keys at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
    );
  });

  it('sorts objects with many keys as it sorts small ones', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { minLength: 12, maxLength: 40 }), (keys) => {
        const value = Object.fromEntries(keys.map((key, index) => [key, { [key]: index, '': keys }]));
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      { numRuns: 300 },
    );
  });

  it('writes equal data the same way whatever the key order, integer-like and reserved keys included', () => {
    const key = fc.oneof(
      fc.string(),
      fc.nat().map(String),
      fc.constantFrom(
        '10',
        '9',
        '0',
        '01',
        '-1',
        '1.5',
        '4294967294',
        '4294967295',
        '__proto__',
        'constructor',
        'a',
        'B',
      ),
    );
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        fc.date({ noInvalidDate: true }),
        fc.constantFrom(undefined, -0, Number.NaN, Infinity, 1e21, 5e-324),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(key, tie('value'), { maxKeys: 5 }),
      ),
    })).value;
    fc.assert(
      fc.property(
        json.filter((value) => value !== undefined),
        (value) => {
          expect(canonicalJson(value)).toBe(reference(value));
          // The same data as JSON parses it back, keys in another order.
          expect(canonicalJson(JSON.parse(JSON.stringify(value)))).toBe(reference(value));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
