/**
 * The rules of the gateway's own request DTOs. Each field carries one rule that reports the first
 * thing wrong with its value (the type wanted before any length, range or pattern), so a caller
 * gets one message per problem, worded like the upstream body checks (messages.ts).
 */
import { isISO8601, isUUID, ValidateBy } from 'class-validator';
import {
  itemCountProblem,
  lengthProblem,
  oneOfMessage,
  rangeMessage,
  REQUIRED,
  typeMessage,
} from './messages';

/** Answers what is wrong with a value, or null when nothing is. */
export type FieldCheck = (value: unknown) => string | null;

/**
 * A class-validator rule whose message is `check`'s answer, or `is required` for a field left out
 * (fields that may be left out say so with @IsOptional). The property name is not repeated.
 */
export function FieldRule(name: string, check: FieldCheck): PropertyDecorator {
  return ValidateBy({
    name,
    validator: {
      validate: (value: unknown) => check(value) === null,
      defaultMessage: (args) =>
        args?.value === undefined ? REQUIRED : (check(args.value) ?? 'is not valid'),
    },
  });
}

/** A pattern a text must match, and what to tell a caller whose text does not. */
export interface TextPattern {
  pattern: RegExp;
  message: string;
}

/** Why `value` is not a string of `min` to `max` UTF-16 units matching `rule`, or null. */
export function textProblem(value: unknown, min: number, max: number, rule?: TextPattern): string | null {
  if (typeof value !== 'string') return typeMessage('string');
  return lengthProblem(value.length, min, max) ?? (rule && !rule.pattern.test(value) ? rule.message : null);
}

/** A string of `min` to `max` characters, matching `rule` when one is given. */
export const IsText = (min: number, max: number, rule?: TextPattern): PropertyDecorator =>
  FieldRule('isText', (value) => textProblem(value, min, max, rule));

const NO_WHITESPACE: TextPattern = { pattern: /^\S+$/, message: 'must not contain whitespace' };

/** A key id, secret or token: 1 to `max` characters without whitespace. */
export const IsToken = (max: number): PropertyDecorator => IsText(1, max, NO_WHITESPACE);

/** One of `values`, compared exactly. */
export const IsOneOf = (values: readonly unknown[]): PropertyDecorator =>
  FieldRule('isOneOf', (value) => (values.includes(value) ? null : oneOfMessage(values)));

export const IsFlag = (): PropertyDecorator =>
  FieldRule('isFlag', (value) => (typeof value === 'boolean' ? null : typeMessage('boolean')));

export const IsUuid = (): PropertyDecorator =>
  FieldRule('isUuid', (value) =>
    typeof value === 'string' && isUUID(value, 'all') ? null : 'must be a UUID',
  );

/** A whole number from `min` to `max`; a query parameter arrives converted by @Type(() => Number). */
export const IsWholeNumber = (min: number, max: number): PropertyDecorator =>
  FieldRule('isWholeNumber', (value) =>
    Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max
      ? null
      : rangeMessage(true, min, max),
  );

/** A list of `min` to `max` distinct items, each one of `values`. */
export const IsSetOf = (values: readonly string[], min: number, max: number): PropertyDecorator =>
  FieldRule('isSetOf', (value) => {
    if (!Array.isArray(value)) return typeMessage('array');
    const count = itemCountProblem(value.length, min, max);
    if (count !== null) return count;
    if (!value.every((item) => values.includes(item as string))) return `each item ${oneOfMessage(values)}`;
    return new Set(value).size === value.length ? null : 'must not list an item twice';
  });

// RFC 3339: a date-time with an explicit offset, so a bound never depends on the server's time zone.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * An ISO 8601 date-time with a time zone (`2026-01-01T00:00:00Z`) whose instant falls in the years
 * 1000 to 9999, which a Postgres timestamp and a JavaScript Date hold alike (Postgres has no year 0,
 * and Date reads two-digit years as 19xx).
 */
export function IsDateTime(): PropertyDecorator {
  return FieldRule('isDateTime', (value) => {
    const valid =
      typeof value === 'string' &&
      DATE_TIME.test(value) &&
      isISO8601(value, { strict: true }) &&
      new Date(value).getUTCFullYear() >= 1000 &&
      new Date(value).getUTCFullYear() <= 9999;
    return valid
      ? null
      : 'must be a date-time with a time zone in the years 1000 to 9999, e.g. 2026-01-01T00:00:00Z';
  });
}
