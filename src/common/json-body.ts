import type { FastifyRequest } from 'fastify';
import { GatewayRequestError } from './request-error';

// Bounds a valid body can never need: no contract shape nests deeper than ~8 levels or holds
// more than 500 items in one list. Beyond them parsing and validation cost grows for nothing.
export const MAX_JSON_DEPTH = 32;
export const MAX_JSON_ARRAY_LENGTH = 10_000;

/**
 * Fastify content parser: JSON without reserved keys, within depth and list bounds. JSON.parse
 * keeps a "__proto__" key as an own field, so the key check below refuses it by name instead of
 * reporting valid JSON as malformed.
 */
export function parseJsonBody(
  _request: FastifyRequest,
  body: string,
  done: (error: Error | null, value?: unknown) => void,
): void {
  if (body.length === 0) {
    done(new GatewayRequestError('GATEWAY_JSON_EMPTY', 'The request body is empty but declared as JSON.'));
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    done(new GatewayRequestError('GATEWAY_JSON_INVALID', 'The request body is not valid JSON.'));
    return;
  }
  // Every body of the facade is an object; Postgres cannot store a NUL inside text.
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    done(new GatewayRequestError('GATEWAY_JSON_NOT_OBJECT', 'The request body must be a JSON object.'));
    return;
  }
  if (body.includes('\\u0000')) {
    done(
      new GatewayRequestError(
        'GATEWAY_JSON_NUL',
        'Strings in the request body must not contain NUL (\\u0000).',
      ),
    );
    return;
  }
  const problem = shapeProblem(value);
  done(problem ? new GatewayRequestError('GATEWAY_JSON_SHAPE', problem) : null, value);
}

// Keys that name Object.prototype members (`__proto__`, `constructor`, `toString`, ...): no
// contract field is named so, and downstream object mapping treats them as methods or as the
// prototype rather than data.
const RESERVED_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

function shapeProblem(root: unknown): string | null {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) return `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`;
    const children = Array.isArray(value) ? value : Object.values(value);
    if (Array.isArray(value) && value.length > MAX_JSON_ARRAY_LENGTH) {
      return `The request body has a list longer than ${MAX_JSON_ARRAY_LENGTH} items.`;
    }
    if (!Array.isArray(value)) {
      const reserved = Object.keys(value).find((key) => RESERVED_KEYS.has(key));
      if (reserved !== undefined) return `The request body must not use "${reserved}" as a key.`;
    }
    for (const child of children) stack.push([child, depth + 1]);
  }
  return null;
}
