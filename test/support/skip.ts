/**
 * Tests that need something this run may not have (a Postgres server, Redis) are skipped with the
 * reason in their name, `[skipped: …]`, which `npm test` lists at the end with the setting that
 * would run them (scripts/skipped-tests-reporter.js). None passes without asserting.
 */

/** The name of a skipped test or suite, carrying why it was skipped. */
export const skippedName = (name: string, reason: string): string => `${name} [skipped: ${reason}]`;

export const NEEDS_POSTGRES = 'DATABASE_URL is unset; set it to a Postgres server to run this';

/**
 * The run's Postgres server (DATABASE_URL, which `npm test` points at a fresh database), or
 * undefined when the run's gateways use embedded databases: unset and empty both mean none.
 */
export const postgresUrl = (): string | undefined => process.env.DATABASE_URL?.trim() || undefined;

/** Whether the run has a Postgres server: the one test of it for every suite. */
export const postgresConfigured = (): boolean => postgresUrl() !== undefined;

/** `describe`, or `describe.skip` with `reason` in its name when `condition` is false. */
export function describeIf(condition: boolean, reason: string) {
  return (name: string, suite: () => void): void =>
    condition ? describe(name, suite) : describe.skip(skippedName(name, reason), suite);
}

/** `it`, or `it.skip` with `reason` in its name when `condition` is false. */
export function itIf(condition: boolean, reason: string) {
  return (name: string, test: () => Promise<void>, timeout?: number): void =>
    condition ? it(name, test, timeout) : it.skip(skippedName(name, reason), test);
}

/** `it`, skipped by name unless the run has a Postgres server. */
export const itWithPostgres = itIf(postgresConfigured(), NEEDS_POSTGRES);

/** `describe`, skipped by name unless the run has a Postgres server. */
export const describeWithPostgres = describeIf(postgresConfigured(), NEEDS_POSTGRES);
