/** Decorators shared by the request DTOs of the facade (pipes, dashboards, history, audit). */
import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  buildMessage,
  IsArray,
  isISO8601,
  IsNotEmpty,
  IsString,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';

type DtoClass = new () => object;

/**
 * The field may be left out, but null is refused: neither upstream contract has a nullable field,
 * and what an upstream would make of a null (clear the value? keep it?) is not shown.
 */
export function OptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}

/**
 * Refuses a missing value and an array. A primitive or null is left to `ValidateNested`, which
 * reports it itself, so a wrong shape yields one message rather than two.
 */
function IsObjectShaped(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isObjectShaped',
      validator: {
        validate: (value: unknown) => value !== undefined && !Array.isArray(value),
        defaultMessage: buildMessage((each) => `${each}$property must be an object`, options),
      },
    },
    options,
  );
}

/** A nested DTO object; an array, a primitive or null in its place is refused with one message. */
export function NestedObject(type: () => DtoClass): PropertyDecorator {
  return applyDecorators(
    IsObjectShaped(),
    ValidateNested({ message: '$property must be an object' }),
    Type(type),
  );
}

/**
 * An array of nested DTO objects. Elements that are arrays are refused explicitly: `ValidateNested`
 * would walk them as lists and let `[[]]` through unchecked. A value that is no array at all may
 * get a second message from `ValidateNested` beside `IsArray`'s.
 */
export function NestedArray(type: () => DtoClass): PropertyDecorator {
  return applyDecorators(
    IsArray(),
    IsObjectShaped({ each: true, validateIf: (_object: object, value: unknown) => Array.isArray(value) }),
    ValidateNested({ each: true, message: 'each value in $property must be an object' }),
    Type(type),
  );
}

export function NonEmptyString(): PropertyDecorator {
  return applyDecorators(IsString(), IsNotEmpty());
}

export function NonEmptyStringArray(): PropertyDecorator {
  return applyDecorators(IsArray(), IsString({ each: true }), IsNotEmpty({ each: true }));
}

const MINUTE_PRECISION_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::00)?Z$/;

/** `2025-01-31T10:15Z` or `2025-01-31T10:15:00Z`, and a real calendar date and time. */
function isMinutePrecisionUtc(value: unknown): boolean {
  if (typeof value !== 'string') return false;
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
}

export function IsMinutePrecisionUtc(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isMinutePrecisionUtc',
      validator: {
        validate: isMinutePrecisionUtc,
        defaultMessage: () =>
          'must be a UTC date-time with minute precision such as 2025-01-31T10:15Z ' +
          '(seconds, if given, must be 00; no fractions; Z required)',
      },
    },
    options,
  );
}

// RFC 3339: a date-time with an explicit offset, so a bound never depends on the server's time zone.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * An ISO 8601 date-time with a time zone (`2026-01-01T00:00:00Z`) whose instant falls in the years
 * 1000 to 9999, which a Postgres timestamp and a JavaScript Date hold alike (Postgres has no year 0,
 * and Date reads two-digit years as 19xx).
 */
export function IsDateTime(): PropertyDecorator {
  return ValidateBy({
    name: 'isDateTime',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string' || !DATE_TIME.test(value) || !isISO8601(value, { strict: true })) {
          return false;
        }
        const year = new Date(value).getUTCFullYear();
        return year >= 1000 && year <= 9999;
      },
      defaultMessage: buildMessage(
        (each) =>
          `${each}$property must be a date-time with a time zone in the years 1000 to 9999, e.g. 2026-01-01T00:00:00Z`,
      ),
    },
  });
}
