/**
 * `db migrate` opens the database alone: it runs without any key, even in production, and says
 * what it did. A real CLI process, started from the sources.
 */
import { readMigrations } from '../src/database/migrator';
import { run } from './support/process';
import { createScratchDatabase, ScratchDatabase } from './support/scratch-database';

describe('db migrate (e2e)', () => {
  jest.setTimeout(120_000);
  let scratch: ScratchDatabase;

  beforeAll(async () => {
    scratch = await createScratchDatabase();
  });
  afterAll(() => scratch.drop());

  it('needs no keys, applies what is pending, then says the database is up to date', async () => {
    const names = readMigrations().map((migration) => migration.name);
    // No GATEWAY_ENCRYPTION_KEYS, no AUDIT_CHAIN_KEYS: production would refuse to start without them.
    const env = Object.fromEntries(
      Object.entries({ NODE_ENV: 'production', ...scratch.env }).filter(([, value]) => value !== ''),
    );
    const first = await run('src/cli/main.ts', ['db', 'migrate'], env);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const [head, ...listed] = first.stdout.trimEnd().split('\n');
    expect(head).toMatch(
      new RegExp(`^applied ${names.length} migrations to database (embedded|postgresql).*:$`),
    );
    expect(listed).toEqual(names.map((name) => `  ${name}`));

    const second = await run('src/cli/main.ts', ['db', 'migrate'], env);
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect(second.stdout).toMatch(
      new RegExp(
        `^database (embedded|postgresql).* is already up to date \\(${names.length} migrations\\)\\n$`,
      ),
    );
  });
});
