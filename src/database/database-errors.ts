import { ProblemException } from '../common/problem/problem';
import type { UniqueConstraint } from './unique-constraints';

// Postgres/driver failures that mean "the database is not reachable right now", or did not answer in
// time: none says anything about the request itself, and a retry later may succeed.
const UNAVAILABLE_CODES = new Set([
  'P1001', // can't reach database server
  'P1002', // server timed out
  'P1003', // the database does not exist (dropped under a running gateway)
  'P1017', // server closed the connection
  'P2024', // timed out fetching a connection from the pool
  'P2028', // a transaction could not start in time (pool exhausted)
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '3D000', // database does not exist
  '53300', // too many connections
  '53400', // configuration limit exceeded
  '55000', // database not accepting connections (ALLOW_CONNECTIONS false)
  '57014', // statement cancelled: it ran past DATABASE_QUERY_TIMEOUT_MS
  '57P01', // admin shutdown, or the session was terminated
  '57P02', // crash shutdown
  '57P03', // cannot connect now (starting up, shutting down)
  '57P04', // database dropped
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

const UNAVAILABLE_MESSAGE =
  /connection terminated|connection refused|can't reach database|timeout exceeded when trying to connect|query read timeout|ECONNREFUSED|server closed the connection/i;

/** The 503 problem of a database the gateway cannot reach, or cannot get a turn at, in time. */
export function databaseUnavailable(): ProblemException {
  return new ProblemException({
    status: 503,
    type: 'database-unavailable',
    title: 'Database unavailable',
    detail: 'The gateway cannot reach its database; nothing was changed. Try again shortly.',
    headers: { 'retry-after': '5' },
  });
}

/** A 503 problem when `error` says the database is unreachable; else null. */
export function databaseUnavailableProblem(error: unknown): ProblemException | null {
  for (const { code, originalCode, message } of errorChain(error)) {
    if (
      (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) ||
      (typeof originalCode === 'string' && UNAVAILABLE_CODES.has(originalCode)) ||
      (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message))
    ) {
      return databaseUnavailable();
    }
  }
  return null;
}

/** Whether Postgres failed the statement behind `error` with SQLSTATE `sqlState`. */
export function hasSqlState(error: unknown, sqlState: string): boolean {
  for (const { code, originalCode } of errorChain(error)) {
    if (code === sqlState || originalCode === sqlState) return true;
  }
  return false;
}

interface DriverError {
  code?: unknown;
  originalCode?: unknown;
  message?: unknown;
}

/** `error` and the errors it wraps, down to the driver's. */
function* errorChain(error: unknown): Generator<DriverError> {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    yield current;
    // Prisma wraps driver errors: the Postgres code sits in meta.driverAdapterError.cause, as
    // `code` or, for the errors the adapter names itself (DatabaseDoesNotExist), `originalCode`.
    const wrapped = current as {
      cause?: unknown;
      originalError?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    current = wrapped.cause ?? wrapped.originalError ?? wrapped.meta?.driverAdapterError;
  }
}

/**
 * Whether `error` is a violation of the unique constraint `constraint`: Prisma's P2002 (a model
 * query) or P2010 (a raw one), whose driver error names the constraint (Postgres) or lists its
 * columns (the embedded database), or Postgres's own 23505 from a statement sent past Prisma
 * (PrismaService.statement).
 */
export function isUniqueViolation(error: unknown, constraint: UniqueConstraint): boolean {
  const {
    code,
    meta,
    constraint: named,
  } = (error ?? {}) as {
    code?: unknown;
    constraint?: unknown;
    meta?: { driverAdapterError?: { cause?: { kind?: unknown; constraint?: unknown } } };
  };
  if (code === '23505') return named === constraint.name;
  const cause = meta?.driverAdapterError?.cause;
  if ((code !== 'P2002' && code !== 'P2010') || cause?.kind !== 'UniqueConstraintViolation') return false;
  const { index, fields } = (cause.constraint ?? {}) as { index?: unknown; fields?: unknown };
  if (index !== undefined) return index === constraint.name;
  return (
    Array.isArray(fields) &&
    fields.length === constraint.columns.length &&
    fields.every((field, i) => unquoted(field) === constraint.columns[i])
  );
}

/** A column as a violation lists it: reserved words (`group`) come quoted. */
function unquoted(field: unknown): unknown {
  return typeof field === 'string' ? field.replace(/^"(.*)"$/, '$1') : field;
}

/**
 * A `.catch` for a write that can lose a race for `constraint`: the database's refusal becomes the
 * problem `conflict` builds (the one a duplicate found any other way gets, a 409 naming it); any
 * other error passes on as it is.
 */
export function onDuplicate(
  constraint: UniqueConstraint,
  conflict: () => Error | Promise<Error>,
): (error: unknown) => Promise<never> {
  return async (error) => {
    throw isUniqueViolation(error, constraint) ? await conflict() : error;
  };
}
