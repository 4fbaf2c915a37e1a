import type { FastifyRequest } from 'fastify';
import { parseJsonBody } from './json-body';
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
