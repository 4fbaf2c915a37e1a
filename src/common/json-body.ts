import type { FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';

// Bounds a valid body can never need: no contract shape nests deeper than ~8 levels or holds
// more than 500 items in one list. Beyond them parsing and validation cost grows for nothing.
export const MAX_JSON_DEPTH = 32;
export const MAX_JSON_ARRAY_LENGTH = 10_000;

class BodyError extends Error {
  readonly statusCode = 400;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Fastify content parser: JSON without prototype poisoning, within depth and list bounds. */
export function parseJsonBody(
  _request: FastifyRequest,
  body: string,
  done: (error: Error | null, value?: unknown) => void,
): void {
  if (body.length === 0) {
    done(new BodyError('FST_ERR_CTP_EMPTY_JSON_BODY', 'The request body is empty but declared as JSON.'));
    return;
  }
  let value: unknown;
  try {
    value = secureJson.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    done(new BodyError('FST_ERR_CTP_INVALID_JSON_BODY', 'The request body is not valid JSON.'));
    return;
  }
  // Every body of the facade is an object; Postgres cannot store a NUL inside text.
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    done(new BodyError('GATEWAY_JSON_NOT_OBJECT', 'The request body must be a JSON object.'));
    return;
  }
  if (body.includes('\\u0000')) {
    done(new BodyError('GATEWAY_JSON_NUL', 'Strings in the request body must not contain NUL (\\u0000).'));
    return;
  }
  const problem = boundsProblem(value);
  done(problem ? new BodyError('GATEWAY_JSON_BOUNDS', problem) : null, value);
}

function boundsProblem(root: unknown): string | null {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) return `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`;
    const children = Array.isArray(value) ? value : Object.values(value);
    if (Array.isArray(value) && value.length > MAX_JSON_ARRAY_LENGTH) {
      return `The request body has a list longer than ${MAX_JSON_ARRAY_LENGTH} items.`;
    }
    for (const child of children) stack.push([child, depth + 1]);
  }
  return null;
}
