import type { FastifyRequest } from 'fastify';
import { validationProblem } from './problem/validation';
import { GatewayRequestError } from './request-error';

/** The media type Fastify gives an object it serialises; JSON text sent as it is goes out under it too. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

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
  if (problem) {
    done(new GatewayRequestError('GATEWAY_JSON_SHAPE', problem));
    return;
  }
  // Only a \u escape can put a lone surrogate in the body: the text itself was decoded from UTF-8.
  const illFormed = SURROGATE_ESCAPE.test(body) ? illFormedText(value) : null;
  done(illFormed ? validationProblem([illFormed]) : null, value);
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE_MESSAGE =
  'must be well-formed Unicode text: it holds a lone surrogate (an unpaired \\ud800-\\udfff escape)';

/**
 * The first string or key that is not well-formed UTF-16, as a field error naming where (paths as
 * validation names them). Postgres refuses such text in jsonb, and no upstream can store it either.
 */
function illFormedText(root: object): { path: string; message: string } | null {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (!value.isWellFormed()) return { path, message: LONE_SURROGATE_MESSAGE };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push([item, `${path}[${index}]`]));
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      const childPath = path === '' ? key.toWellFormed() : `${path}.${key.toWellFormed()}`;
      if (!key.isWellFormed())
        return { path: childPath, message: `is a field name that ${LONE_SURROGATE_MESSAGE}` };
      stack.push([child, childPath]);
    }
  }
  return null;
}

// JSON.stringify writes a lone surrogate as a \ud8xx-\udfff escape; without one, nothing to replace.
const LONE_SURROGATE_JSON = /\\ud[89a-f]/;

/**
 * JSON text of `value` that Postgres jsonb accepts: lone surrogates, in strings or keys, become
 * U+FFFD. For content the gateway did not parse itself (an upstream's answer it stores).
 */
export function storableJson(value: unknown): string {
  const text = JSON.stringify(value);
  return LONE_SURROGATE_JSON.test(text) ? JSON.stringify(wellFormedCopy(value)) : text;
}

/** `value` itself, or a copy with U+FFFD for each lone surrogate (see storableJson). */
export function wellFormedJson<T>(value: T): T {
  return LONE_SURROGATE_JSON.test(JSON.stringify(value)) ? (wellFormedCopy(value) as T) : value;
}

function wellFormedCopy(value: unknown): unknown {
  if (typeof value === 'string') return value.toWellFormed();
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(wellFormedCopy);
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key.toWellFormed(), wellFormedCopy(child)]),
  );
}

// Keys that name Object.prototype members (`__proto__`, `constructor`, `toString`, ...): no
// contract field is named so, and downstream object mapping treats them as methods or as the
// prototype rather than data.
const RESERVED_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

function shapeProblem(value: unknown, depth = 1): string | null {
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_JSON_DEPTH) return `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`;
  if (Array.isArray(value)) {
    if (value.length > MAX_JSON_ARRAY_LENGTH) {
      return `The request body has a list longer than ${MAX_JSON_ARRAY_LENGTH} items.`;
    }
    for (const item of value) {
      const problem = shapeProblem(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const reserved = keys.find((key) => RESERVED_KEYS.has(key));
  if (reserved !== undefined) return `The request body must not use "${reserved}" as a key.`;
  for (const key of keys) {
    const problem = shapeProblem(record[key], depth + 1);
    if (problem) return problem;
  }
  return null;
}
