/**
 * A start that cannot go on prints one line to stderr, naming the setting (or the holder) and the
 * fix, and exits non-zero: no framework log, no stack. Real processes, started from the sources.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENERATE_KEY_COMMAND } from '../src/crypto/load-key-ring';
import { run, type Finished } from './support/process';
import { TEST_AUDIT_CHAIN_KEYS, TEST_ENCRYPTION_KEYS } from './support/gateway';
import { generateSigningKeyText } from '../src/crypto/audit-signing-keys';

const BASE = {
  NODE_ENV: 'production',
  DATA_DIR: 'memory://',
  PORT: '0',
  HOST: '127.0.0.1',
  GATEWAY_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
  AUDIT_CHAIN_KEYS: TEST_AUDIT_CHAIN_KEYS,
  AUDIT_SIGNING_KEYS: generateSigningKeyText('test'),
};

function start(env: Record<string, string>): Promise<Finished> {
  const settings = Object.fromEntries(
    Object.entries({ ...BASE, ...env }).filter(([, value]) => value !== ''),
  );
  return run('src/main.ts', [], settings);
}

/**
 * The one line printed, after checking it is the only one and the process failed. The log on
 * stdout (JSON lines, when the failure comes after the database opened) says it never listened.
 */
function onlyLine(result: Finished): string {
  expect(result.code).toBe(1);
  expect(result.stdout).not.toContain('listening on');
  for (const line of result.stdout.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  expect(result.stderr.endsWith('\n')).toBe(true);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  return result.stderr.trimEnd();
}

describe('start failures (e2e)', () => {
  jest.setTimeout(60_000);

  it('names AUDIT_CHAIN_KEYS missing in production and how to make one', async () => {
    expect(onlyLine(await start({ AUDIT_CHAIN_KEYS: '' }))).toBe(
      'pipes-gateway: configuration error: AUDIT_CHAIN_KEYS must be set in production, e.g. ' +
        `AUDIT_CHAIN_KEYS=v1:<base64 of 32 random bytes>; make a key with: ${GENERATE_KEY_COMMAND}`,
    );
  });

  it('names AUDIT_SIGNING_KEYS missing in production and how to make one', async () => {
    expect(onlyLine(await start({ AUDIT_SIGNING_KEYS: '' }))).toBe(
      'pipes-gateway: configuration error: AUDIT_SIGNING_KEYS must be set in production, e.g. ' +
        'AUDIT_SIGNING_KEYS=<key id>:<base64 of a PKCS#8 DER Ed25519 private key>; ' +
        'make one with: npm run cli -- keys new-signing-key',
    );
  });

  it('names AUDIT_CHAIN_KEYS missing in production for a CLI command too', async () => {
    const settings = { ...BASE, AUDIT_CHAIN_KEYS: undefined };
    const cli = await run('src/cli/main.ts', ['tenant', 'list'], JSON.parse(JSON.stringify(settings)));
    expect(onlyLine(cli)).toBe(
      'configuration error: AUDIT_CHAIN_KEYS must be set in production, e.g. ' +
        `AUDIT_CHAIN_KEYS=v1:<base64 of 32 random bytes>; make a key with: ${GENERATE_KEY_COMMAND}`,
    );
  });

  it('names a malformed GATEWAY_ENCRYPTION_KEYS', async () => {
    expect(onlyLine(await start({ GATEWAY_ENCRYPTION_KEYS: 'v1:short' }))).toMatch(
      /^pipes-gateway: configuration error: GATEWAY_ENCRYPTION_KEYS /,
    );
  });

  it('names the process that holds the data folder, and what to do', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pgw-held-'));
    try {
      const env = { NODE_ENV: 'development', DATA_DIR: dataDir };
      const holder = await import('../src/database/data-dir-lock').then(({ lockDataDir }) =>
        lockDataDir(dataDir),
      );
      try {
        const line = onlyLine(await start(env));
        expect(line).toMatch(
          new RegExp(
            `^pipes-gateway: failed to start: The data folder ${dataDir} is in use by process ${process.pid} \\(`,
          ),
        );
        expect(line).toContain('only one process may open an embedded database. Stop that process first;');
        expect(line).toContain('A second gateway needs a DATA_DIR of its own, or Postgres (DATABASE_URL).');
      } finally {
        holder();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('names the database it cannot reach', async () => {
    expect(onlyLine(await start({ DATABASE_URL: 'postgresql://gw:pw@127.0.0.1:1/gateway' }))).toBe(
      'pipes-gateway: failed to start: database postgresql://gw:***@127.0.0.1:1/gateway is not usable: ' +
        'connect ECONNREFUSED 127.0.0.1:1 (check DATABASE_URL and that the database is up)',
    );
  });

  it('names PORT when the port is taken', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    try {
      expect(onlyLine(await start({ PORT: String(port) }))).toBe(
        `pipes-gateway: failed to start: port ${port} is in use by another process: stop it, ` +
          'or set PORT to a free port (0 picks one)',
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it("names HOST when the address is not this host's", async () => {
    expect(onlyLine(await start({ HOST: '192.0.2.1' }))).toBe(
      'pipes-gateway: failed to start: 192.0.2.1 is not an address of this host: set HOST to one of its ' +
        'addresses (0.0.0.0 listens on all, 127.0.0.1 on this host alone)',
    );
  });
});
