/** Decorators shared by the request DTOs of the gateway's own resources (history, audit). */
import { buildMessage, isISO8601, ValidateBy } from 'class-validator';

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
