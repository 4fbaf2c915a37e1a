#!/usr/bin/env node
// `npm test`: the whole suite (unit + e2e). With DATABASE_URL set, the e2e tests run against a
// fresh database created on that server for this run (named after TEST_DATABASE_PREFIX) and
// dropped afterwards; without it (unset or empty), each test app runs on its own in-memory embedded
// database, and jest gets no DATABASE_URL or TEST_ADMIN_DATABASE_URL at all: the suites ask
// test/support/skip.ts's postgresConfigured(), and processes they start see no database setting
// but the ones a test gives them. Extra arguments go to jest, except the console's component
// tests (console/**/*.test.ts(x)), which go to Vitest; without arguments both run.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { Client } = require('pg');

const DEFAULT_PREFIX = 'pipes_gateway_test';

/**
 * The prefix of the databases the run creates on DATABASE_URL's server (TEST_DATABASE_PREFIX):
 * one for the run, `<prefix>_<time>_<pid>`, and one per suite that needs its own,
 * `<prefix>_scratch_…`. A Postgres name, so that it needs no quoting and is not cut.
 */
function testDatabasePrefix(env) {
  const prefix = env.TEST_DATABASE_PREFIX ?? DEFAULT_PREFIX;
  if (!/^[a-z_][a-z0-9_]{0,29}$/.test(prefix)) {
    throw new Error(
      `TEST_DATABASE_PREFIX must be 1 to 30 lower-case letters, digits or _, not starting with a digit (got "${prefix}")`,
    );
  }
  return prefix;
}

async function withFreshDatabase(baseUrl, run) {
  const name = `${testDatabasePrefix(process.env)}_${Date.now()}_${process.pid}`;
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  console.log(`test database: ${name} on ${url.host}`);
  try {
    return run(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

/** The console's component tests among the arguments (Vitest's), and the rest (jest's). */
function splitArguments(args) {
  const isConsoleTest = (arg) => /^(\.\/)?console\/.*\.test\.tsx?$/.test(arg);
  return { vitest: args.filter(isConsoleTest), jest: args.filter((arg) => !isConsoleTest(arg)) };
}

/** The console's component tests in happy-dom (console/vitest.config.mts), relative to console/. */
function vitest(files) {
  const args = [
    path.join(__dirname, '..', 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--config',
    'console/vitest.config.mts',
    ...files.map((file) => file.replace(/^(\.\/)?console\//, '')),
  ];
  return spawnSync(process.execPath, args, { stdio: 'inherit' }).status ?? 1;
}

// The suites wait on processes, browsers and timers much of the time: three workers keep a two-core
// machine busy where two leave it idle. `--maxWorkers` (`-w`, `--runInBand`) among the arguments
// sets it instead.
const DEFAULT_WORKERS = 3;

function jest(env, without = [], jestArgs = process.argv.slice(2)) {
  const setsWorkers = jestArgs.some(
    (arg) => /^(--maxWorkers|-w)(=|$)/.test(arg) || arg === '--runInBand' || arg === '-i',
  );
  // PGlite loads its WebAssembly with a dynamic import, which jest's VM allows only with this flag.
  const args = [
    '--experimental-vm-modules',
    '--no-warnings=ExperimentalWarning',
    require.resolve('jest/bin/jest'),
    ...(setsWorkers ? [] : [`--maxWorkers=${DEFAULT_WORKERS}`]),
    ...jestArgs,
  ];
  const childEnv = { ...process.env, ...env };
  for (const name of without) delete childEnv[name];
  return spawnSync(process.execPath, args, { stdio: 'inherit', env: childEnv }).status ?? 1;
}

async function main() {
  const args = process.argv.slice(2);
  const split = splitArguments(args);
  const runsVitest = args.length === 0 || split.vitest.length > 0;
  const runsJest = args.length === 0 || split.jest.length > 0;
  const vitestStatus = runsVitest ? vitest(split.vitest) : 0;
  if (!runsJest) process.exit(vitestStatus);
  const baseUrl = process.env.DATABASE_URL?.trim();
  const status = baseUrl
    ? await withFreshDatabase(baseUrl, (url) =>
        jest({ DATABASE_URL: url, TEST_ADMIN_DATABASE_URL: baseUrl }, [], split.jest),
      )
    : jest({}, ['DATABASE_URL', 'TEST_ADMIN_DATABASE_URL'], split.jest);
  process.exit(status || vitestStatus);
}

module.exports = { testDatabasePrefix, splitArguments };
if (require.main === module) {
  main().catch((error) => {
    console.error(`npm test: ${error.message}`);
    process.exit(1);
  });
}
