import type { FastifyRequest } from 'fastify';
import { ProblemException } from './problem/problem';
import { parseJsonBody, storableJson } from './json-body';
import { GatewayRequestError } from './request-error';

function parse(body: string): { error: GatewayRequestError | null; value?: unknown } {
  let outcome: { error: GatewayRequestError | null; value?: unknown } | undefined;
  parseJsonBody({} as FastifyRequest, body, (error, value) => {
    outcome = { error: error as GatewayRequestError | null, value };
  });
  return outcome!;
}

describe('parseJsonBody', () => {
  it('parses an object body', () => {
    expect(parse('{"name":"x","tags":["a"]}')).toEqual({ error: null, value: { name: 'x', tags: ['a'] } });
  });

  it.each([
    ['{"__proto__":{"admin":true}}', '__proto__'],
    ['{"a":[{"b":{"__proto__":null}}]}', '__proto__'],
    ['{"constructor":{"prototype":{"admin":true}}}', 'constructor'],
    // The outer key is named: a reserved key inside a reserved key's value is found later.
    ['{"constructor":{"__proto__":null}}', 'constructor'],
    ['{"x":{"toString":1}}', 'toString'],
  ])('refuses %s by naming "%s"', (body, key) => {
    const { error } = parse(body);
    expect(error?.code).toBe('GATEWAY_JSON_SHAPE');
    expect(error?.message).toBe(`The request body must not use "${key}" as a key.`);
  });

  it('keeps a "__proto__" key from reaching the prototype of anything', () => {
    parse('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['', 'GATEWAY_JSON_EMPTY'],
    ['{"a":', 'GATEWAY_JSON_INVALID'],
    ['[1]', 'GATEWAY_JSON_NOT_OBJECT'],
    ['null', 'GATEWAY_JSON_NOT_OBJECT'],
    ['{"a":"\\u0000"}', 'GATEWAY_JSON_NUL'],
  ])('refuses %j with %s', (body, code) => {
    expect(parse(body).error?.code).toBe(code);
  });
});

describe('parseJsonBody and lone surrogates', () => {
  const fieldErrors = (body: string) => {
    const { error } = parse(body);
    expect(error).toBeInstanceOf(ProblemException);
    return (error as unknown as ProblemException).problem.errors;
  };

  it.each([
    ['{"name":"a\\ud800"}', 'name'],
    ['{"name":"\\uDFFFz"}', 'name'],
    ['{"a":{"b":[1,"ok","\\udc00\\ud800"]}}', 'a.b[2]'],
    // A high surrogate followed by another high one: the first is still alone.
    ['{"t":"\\ud800\\ud800\\udc00"}', 't'],
  ])('refuses %s naming %s', (body, path) => {
    expect(fieldErrors(body)).toEqual([{ path, message: expect.stringMatching(/lone surrogate/) }]);
  });

  it('names a field name that holds one', () => {
    expect(fieldErrors('{"a":{"x\\ud800":1}}')).toEqual([
      { path: 'a.x\ufffd', message: expect.stringMatching(/^is a field name that must be well-formed/) },
    ]);
  });

  it.each([
    '{"clef":"\\ud834\\udd1e"}',
    '{"clef":"\u{1d11e}"}',
    // The text of an escape, not an escape: its backslash is escaped.
    '{"text":"\\\\ud800"}',
  ])('takes %s', (body) => {
    expect(parse(body).error).toBeNull();
  });
});

describe('storableJson', () => {
  it('leaves well-formed content as JSON.stringify writes it', () => {
    const value = { name: 'clef \u{1d11e}', text: '\\ud800', list: [1, null, 'é'] };
    expect(storableJson(value)).toBe(JSON.stringify(value));
  });

  it('writes lone surrogates, in values and keys, as U+FFFD', () => {
    expect(JSON.parse(storableJson({ a: ['x\ud800'], ['k\udc00']: { b: '\ud834\udd1e' } }))).toEqual({
      a: ['x\ufffd'],
      'k\ufffd': { b: '\u{1d11e}' },
    });
  });
});
