/**
 * One process per embedded data folder: a second gateway, or a CLI command, started on a folder a
 * gateway has open is refused at once naming that gateway; a lock left by a killed process is
 * taken over. Real processes, started from the sources (test/support/run-typescript.js).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrismaService } from '../../src/database/prisma.service';
import { CLAIM_SOCKET, LOCK_FILE } from '../../src/database/data-dir-lock';
import { platformAuth } from '../support/fixtures';
import {
  startGateway,
  TEST_AUDIT_CHAIN_KEYS,
  TEST_AUDIT_SIGNING_KEYS,
  TEST_ENCRYPTION_KEYS,
} from '../support/gateway';
import { itIf, itWithPostgres } from '../support/skip';

const ROOT = join(__dirname, '..', '..');

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Starts a TypeScript entry point of the gateway as a process of its own on `dataDir`. */
function launch(entry: string, args: string[], dataDir: string): ChildProcess {
  return spawn(process.execPath, [join(ROOT, 'test/support/run-typescript.js'), entry, ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      GATEWAY_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      AUDIT_CHAIN_KEYS: TEST_AUDIT_CHAIN_KEYS,
      AUDIT_SIGNING_KEYS: TEST_AUDIT_SIGNING_KEYS,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function finished(child: ChildProcess): Promise<Finished> {
  const started = Date.now();
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started })),
  );
}

describe('one process per embedded data folder (e2e)', () => {
  // Each test opens an embedded database in a new folder and starts processes from the sources.
  jest.setTimeout(180_000);
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'pgw-data-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const embedded = () => ({ DATA_DIR: dataDir, DATABASE_URL: '' });

  it('refuses a second gateway at once, naming the process that holds the folder', async () => {
    const gateway = await startGateway(embedded());
    try {
      const second = await finished(launch('src/main.ts', [], dataDir));
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain(`is in use by process ${process.pid} (`);
      expect(second.stderr).toMatch(/only one process may open an embedded database/);
      expect(second.stdout).not.toMatch(/listening/);
    } finally {
      await gateway.close();
    }
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });

  it('refuses a CLI command while the gateway runs, before it does anything, and says what to do', async () => {
    const gateway = await startGateway(embedded());
    try {
      const cli = await finished(launch('src/cli/main.ts', ['tenant', 'create', 'made-by-cli'], dataDir));
      expect(cli.code).toBe(1);
      expect(cli.stderr).toContain(`is in use by process ${process.pid} (`);
      expect(cli.stderr).toContain('POST /v1/admin/tenants');
      expect(cli.stdout).toBe('');
      // Nothing the command would have done happened; the gateway does it.
      const prisma = gateway.app.get(PrismaService);
      expect(await prisma.tenant.count({ where: { name: 'made-by-cli' } })).toBe(0);
      await gateway.http
        .post('/v1/admin/tenants')
        .set(platformAuth)
        .send({ name: 'made-by-api' })
        .expect(201);
    } finally {
      await gateway.close();
    }
    // Once the gateway is gone the command runs, and what it reports done is kept.
    const cli = await finished(launch('src/cli/main.ts', ['tenant', 'create', 'made-by-cli'], dataDir));
    expect(cli).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^tenant made-by-cli: [0-9a-f-]{36}/),
    });
    const gateway2 = await startGateway(embedded());
    try {
      const names = (await gateway2.app.get(PrismaService).tenant.findMany()).map((tenant) => tenant.name);
      expect(names.sort()).toEqual(['made-by-api', 'made-by-cli']);
    } finally {
      await gateway2.close();
    }
  });

  it('keeps the folder when its lock file is deleted: a second gateway and the CLI are refused alike', async () => {
    const gateway = await startGateway(embedded());
    try {
      rmSync(join(dataDir, LOCK_FILE));
      const second = await finished(launch('src/main.ts', [], dataDir));
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain(`is in use by process ${process.pid} (`);
      expect(second.stderr).toMatch(/only one process may open an embedded database/);
      expect(second.stdout).not.toMatch(/listening/);
      const cli = await finished(launch('src/cli/main.ts', ['tenant', 'create', 'made-by-cli'], dataDir));
      expect(cli.code).toBe(1);
      expect(cli.stderr).toContain(`is in use by process ${process.pid} (`);
      expect(cli.stderr).toContain('POST /v1/admin/tenants');
      // The first still answers, and what it writes is kept.
      await gateway.http.get('/health/ready').expect(200);
      await gateway.http.post('/v1/admin/tenants').set(platformAuth).send({ name: 'kept' }).expect(201);
    } finally {
      await gateway.close();
    }
    const reopened = await startGateway(embedded());
    try {
      const names = (await reopened.app.get(PrismaService).tenant.findMany()).map((tenant) => tenant.name);
      expect(names).toEqual(['kept']);
    } finally {
      await reopened.close();
    }
  });

  it('takes over the folder of a gateway that was killed', async () => {
    const first = launch('src/main.ts', [], dataDir);
    const exited = finished(first);
    // Killed once it serves: its lock stays behind.
    await new Promise<void>((resolve, reject) => {
      first.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('listening on')) resolve();
      });
      void exited.then((result) => reject(new Error(`the first gateway ended: ${result.stderr}`)));
    });
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: first.pid });
    first.kill('SIGKILL');
    await exited;
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(true);
    expect(statSync(join(dataDir, CLAIM_SOCKET)).isSocket()).toBe(true);

    const gateway = await startGateway(embedded());
    try {
      expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
      await gateway.http.get('/health/ready').expect(200);
    } finally {
      await gateway.close();
    }
  });

  itIf(process.getuid?.() === 0, 'needs root, to act as another local user')(
    'another local user cannot take the folder first and keep the gateway from starting',
    async () => {
      chmodSync(dataDir, 0o755); // as the folder the gateway makes: others may read it, not write it
      const { dev, ino } = statSync(dataDir);
      // What such a user could reach: names outside the folder (as the former abstract-namespace
      // claim was), and the folder's own socket and lock file.
      const squat = `
        const net = require('node:net'), fs = require('node:fs');
        const attempt = (what, take) => { try { take(); console.log(what, 'taken'); } catch (e) { console.log(what, e.code); } };
        const former = '\\0pipes-gateway/data-dir/' +
          require('node:crypto').createHash('sha256').update(${JSON.stringify(`${dev}:${ino}`)}).digest('hex').slice(0, 32);
        net.createServer().listen(former, () => {
          attempt('lock', () => fs.writeFileSync(${JSON.stringify(join(dataDir, LOCK_FILE))}, '{}'));
          net.createServer().on('error', (e) => console.log('socket', e.code))
            .listen(${JSON.stringify(join(dataDir, CLAIM_SOCKET))}, () => console.log('socket taken'));
          setTimeout(() => console.log('ready'), 200);
        });`;
      const squatter = spawn(process.execPath, ['-e', squat], { uid: 65534, gid: 65534, cwd: '/' });
      let said = '';
      await new Promise<void>((resolve, reject) => {
        squatter.stdout.on('data', (chunk: Buffer) => {
          said += chunk.toString();
          if (said.includes('ready')) resolve();
        });
        squatter.on('exit', () => reject(new Error(`the squatter ended: ${said}`)));
        squatter.on('error', reject);
      });
      try {
        expect(said.split('\n').filter(Boolean).sort()).toEqual(['lock EACCES', 'ready', 'socket EACCES']);
        const gateway = await startGateway(embedded());
        try {
          await gateway.http.get('/health/ready').expect(200);
          const second = await finished(launch('src/main.ts', [], dataDir));
          expect(second.code).not.toBe(0);
          expect(second.stderr).toContain(`is in use by process ${process.pid} (`);
        } finally {
          await gateway.close();
        }
      } finally {
        squatter.kill();
      }
    },
  );

  itWithPostgres('takes no lock on Postgres: replicas share a DATA_DIR freely', async () => {
    const [one, two] = [await startGateway({ DATA_DIR: dataDir }), await startGateway({ DATA_DIR: dataDir })];
    try {
      expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
