/**
 * Bodies whose shape belongs to an upstream are described once, as JSON Schema in the OpenAPI 3.0
 * dialect, and compiled here at start: the same objects document the routes (OpenAPI components)
 * and check requests. The gateway's own resources keep their class-validator DTOs.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { ProblemFieldError } from '../problem/problem';
import { unknownField, validationProblem } from '../problem/validation';
import {
  atLeastItems,
  atMostCharacters,
  atMostItems,
  NOT_EMPTY,
  oneOfMessage,
  rangeMessage,
  REQUIRED,
  typeMessage,
  typesMessage,
} from './messages';

export type JsonSchema = { [keyword: string]: unknown };

/** A check across fields that JSON Schema (as OpenAPI 3.0 has it) cannot say; pushes its own errors. */
export type BodyRule = (body: unknown, errors: ProblemFieldError[]) => void;

const ajv = new Ajv({
  allErrors: true,
  strict: true,
  // Errors carry their schema, from which the messages name the type or range wanted.
  verbose: true,
  // An OpenAPI annotation (documentation only) that JSON Schema does not define.
  keywords: ['example'],
});

/** `2021-01-01T00:00`, or with `Z`, or with `:00` seconds: a real calendar minute, read as UTC. */
const MINUTE_PRECISION_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::00)?Z?$/;

ajv.addFormat('utc-minute', (value: string) => {
  const match = MINUTE_PRECISION_UTC.exec(value);
  if (match === null) return false;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute
  );
});

const FORMAT_MESSAGES: Record<string, string> = {
  'utc-minute':
    'must be a UTC date and time to the minute, written 2021-01-01T00:00 (a trailing Z is accepted)',
};

/** Checks a body against `schema`, then `rules`; one `{path, message}` per problem, none when it passes. */
export type BodyCheck = (body: unknown) => ProblemFieldError[];

export function compileBodyCheck(schema: JsonSchema, rules: readonly BodyRule[] = []): BodyCheck {
  const validate: ValidateFunction = ajv.compile(schema);
  return (body) => {
    const errors = validate(body) ? [] : fieldErrors(validate.errors ?? []);
    // Rules read fields the schema has typed; on a body with type errors they would only add noise.
    if (errors.length === 0) for (const rule of rules) rule(body, errors);
    return errors;
  };
}

// Which error wins when a path breaks several keywords: the most basic mistake, reported alone.
const PRECEDENCE = ['required', 'additionalProperties', 'type', 'anyOf', 'enum', 'format'];

function fieldErrors(raw: ErrorObject[]): ProblemFieldError[] {
  // A value that fits none of an `anyOf`'s types is told the types it may have, not each miss.
  const alternatives = raw
    .filter((error) => error.keyword === 'anyOf')
    .map((error) => `${error.schemaPath}/`);
  const best = new Map<string, { rank: number; error: ProblemFieldError }>();
  for (const error of raw) {
    if (alternatives.some((prefix) => error.schemaPath.startsWith(prefix))) continue;
    const field = toFieldError(error);
    if (field === null) continue;
    const rank =
      PRECEDENCE.indexOf(error.keyword) === -1 ? PRECEDENCE.length : PRECEDENCE.indexOf(error.keyword);
    const current = best.get(field.path);
    if (current === undefined || rank < current.rank) best.set(field.path, { rank, error: field });
  }
  return [...best.values()].map(({ error }) => error);
}

function toFieldError(error: ErrorObject): ProblemFieldError | null {
  const path = pathOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as JsonSchema;
  switch (error.keyword) {
    case 'required':
      return { path: join(path, String(params.missingProperty)), message: REQUIRED };
    case 'additionalProperties':
      return unknownField(join(path, String(params.additionalProperty)));
    case 'type':
      return { path: path || 'body', message: typeMessage(String(parent.type), parent.nullable === true) };
    case 'anyOf': {
      const branches = (error.schema ?? []) as JsonSchema[];
      return {
        path: path || 'body',
        message: typesMessage(
          branches.map((branch) => String(branch.type)),
          branches.some((branch) => branch.nullable === true),
        ),
      };
    }
    case 'enum':
      return {
        path,
        message: oneOfMessage((params.allowedValues as unknown[]).filter((value) => value !== null)),
      };
    case 'minimum':
    case 'maximum': {
      const { minimum, maximum } = parent as { minimum?: number; maximum?: number };
      return { path, message: rangeMessage(parent.type === 'integer', minimum, maximum) };
    }
    case 'maxItems':
      return { path, message: atMostItems(Number(params.limit)) };
    case 'minItems':
      return { path, message: atLeastItems(Number(params.limit)) };
    case 'maxLength':
      return { path, message: atMostCharacters(Number(params.limit)) };
    case 'minLength':
      return { path, message: NOT_EMPTY };
    case 'format':
      return {
        path,
        message: FORMAT_MESSAGES[String(params.format)] ?? `must be a ${String(params.format)}`,
      };
    default:
      return { path, message: error.message ?? 'is not valid' };
  }
}

/** `/source/kafka/0/name` → `source.kafka[0].name` (JSON Pointer escapes undone). */
function pathOf(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(join, '');
}

export function join(parent: string, segment: string | number): string {
  if (typeof segment === 'number' || /^\d+$/.test(segment)) return `${parent}[${segment}]`;
  return parent === '' ? segment : `${parent}.${segment}`;
}

/** `body` as it is when `check` passes it; otherwise a 400 validation problem naming every path. */
export function assertBody<T = Record<string, unknown>>(check: BodyCheck, body: unknown): T {
  const errors = check(body);
  if (errors.length > 0) throw validationProblem(errors);
  return body as T;
}

const components = new Map<string, JsonSchema | (() => JsonSchema)>();

/**
 * A reference to `schema` for an OpenAPI decorator, registered under `name` among the document's
 * components (see `schemaComponents`), so the typed clients generated from it get a named type.
 * A schema only the document needs is given as the function that makes it, called when the
 * document is built: a gateway never asked for its document does not hold it.
 */
export function schemaRef(name: string, schema: JsonSchema | (() => JsonSchema)): { $ref: string } {
  components.set(name, schema);
  return { $ref: `#/components/schemas/${name}` };
}

/** Every schema `schemaRef` named, for the OpenAPI document's components. */
export function schemaComponents(): Record<string, JsonSchema> {
  return Object.fromEntries(
    [...components].map(([name, schema]) => [name, typeof schema === 'function' ? schema() : schema]),
  );
}
