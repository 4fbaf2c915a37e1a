import { validationProblem } from './problem/validation';

// Printable ASCII without spaces, as idempotency keys are in practice (UUIDs, ULIDs, hashes).
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header, checked; null when absent. */
export function idempotencyKeyHeader(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!IDEMPOTENCY_KEY.test(value)) {
    throw validationProblem([
      { path: 'header:Idempotency-Key', message: 'must be 1 to 255 printable characters without spaces' },
    ]);
  }
  return value;
}

/** If-Match, checked for size; its tags are compared by the service. */
export function ifMatchHeader(value: string | undefined): string | undefined {
  if (value !== undefined && (value.length === 0 || value.length > 1024)) {
    throw validationProblem([
      { path: 'header:If-Match', message: 'must be an entity tag of at most 1024 characters' },
    ]);
  }
  return value;
}
