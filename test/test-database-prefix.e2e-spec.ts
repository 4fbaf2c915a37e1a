import { createScratchDatabase } from './support/scratch-database';
import { itIf, NEEDS_POSTGRES, postgresConfigured } from './support/skip';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { testDatabasePrefix } = require('../scripts/run-tests.js') as {
  testDatabasePrefix(env: Record<string, string | undefined>): string;
};

describe('TEST_DATABASE_PREFIX', () => {
  it('names the databases a run creates, pipes_gateway_test by default', () => {
    expect(testDatabasePrefix({})).toBe('pipes_gateway_test');
    expect(testDatabasePrefix({ TEST_DATABASE_PREFIX: 'ci_42_pgw' })).toBe('ci_42_pgw');
  });

  it('refuses a prefix Postgres would need quoted or cut', () => {
    for (const prefix of ['', 'Upper', '1st', 'with-dash', 'x'.repeat(31)]) {
      expect(() => testDatabasePrefix({ TEST_DATABASE_PREFIX: prefix })).toThrow(
        `TEST_DATABASE_PREFIX must be 1 to 30 lower-case letters, digits or _, not starting with a digit (got "${prefix}")`,
      );
    }
  });

  itIf(postgresConfigured() && Boolean(process.env.TEST_ADMIN_DATABASE_URL), NEEDS_POSTGRES)(
    "names a suite's own database too",
    async () => {
      const before = process.env.TEST_DATABASE_PREFIX;
      process.env.TEST_DATABASE_PREFIX = 'pgw_prefix_check';
      try {
        const scratch = await createScratchDatabase();
        try {
          expect(new URL(scratch.env.DATABASE_URL).pathname).toMatch(/^\/pgw_prefix_check_scratch_\d+_\d+$/);
        } finally {
          await scratch.drop();
        }
      } finally {
        if (before === undefined) delete process.env.TEST_DATABASE_PREFIX;
        else process.env.TEST_DATABASE_PREFIX = before;
      }
    },
  );
});
