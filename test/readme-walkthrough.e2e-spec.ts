/**
 * The README's walkthrough runs as pasted: `npm run sandbox`'s entry point starts as a process of its
 * own in an empty folder (its default data folder, ./data/sandbox, inside it), then every bash block
 * between the README's walkthrough markers runs in one bash session with `set -euo pipefail`, from
 * that folder, twice (a reader may paste it again). Nothing of the walkthrough is restated here: the
 * blocks are read from README.md.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, ScratchDatabase } from './support/scratch-database';

const ROOT = join(__dirname, '..');

/** The bash blocks between `<!-- walkthrough -->` and `<!-- /walkthrough -->`, in order. */
function walkthroughScript(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = /<!-- walkthrough -->([\s\S]*?)<!-- \/walkthrough -->/.exec(readme);
  if (!section) throw new Error('README.md has no <!-- walkthrough --> ... <!-- /walkthrough --> section');
  const blocks = [...section[1].matchAll(/```bash\n([\s\S]*?)```/g)].map((match) => match[1]);
  if (blocks.length === 0) throw new Error('the walkthrough section of README.md has no bash block');
  return blocks.join('\n');
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function outcome(child: ChildProcess): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** sandbox/main.ts (what `npm run sandbox` runs, built) compiled on load, in `folder`. */
function launchSandbox(folder: string, env: Record<string, string>): ChildProcess {
  return spawn(
    process.execPath,
    [join(ROOT, 'test/support/run-typescript.js'), join(ROOT, 'sandbox/main.ts')],
    {
      cwd: folder,
      env: {
        PATH: process.env.PATH,
        HOST: '127.0.0.1',
        PORT: '0',
        SANDBOX_PIPES_PORT: '0',
        SANDBOX_DASHBOARDS_PORT: '0',
        SANDBOX_OIDC_PORT: '0',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

function runWalkthrough(folder: string, script: string): Promise<Run> {
  const bash = spawn('bash', ['-c', `set -euo pipefail\n${script}`], {
    cwd: folder,
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const timer = setTimeout(() => bash.kill('SIGKILL'), 30_000);
  return outcome(bash).finally(() => clearTimeout(timer));
}

describe('the README walkthrough against npm run sandbox (e2e)', () => {
  jest.setTimeout(120_000);
  let scratch: ScratchDatabase;
  let folder: string;
  let sandbox: ChildProcess;
  let sandboxRun: Promise<Run>;
  let banner = '';

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    folder = mkdtempSync(join(tmpdir(), 'pgw-walkthrough-'));
    // Postgres on that path, else the sandbox's own embedded database in ./data/sandbox.
    sandbox = launchSandbox(folder, { DATABASE_URL: scratch.env.DATABASE_URL });
    sandboxRun = outcome(sandbox);
    await new Promise<void>((resolve, reject) => {
      sandbox.stdout!.on('data', (chunk: Buffer) => {
        banner += chunk.toString();
        if (banner.includes('pipes-gateway sandbox on')) resolve();
      });
      void sandboxRun.then((run) =>
        reject(new Error(`the sandbox ended before it was ready: ${run.stderr}`)),
      );
    });
  });

  afterAll(async () => {
    if (sandbox?.exitCode === null) sandbox.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
    await scratch.drop();
  });

  it('runs as pasted, twice, reaching every step and showing no secret', async () => {
    // The database of this run's path: the scratch Postgres database, or the default data folder.
    expect(banner).toContain(
      scratch.env.DATABASE_URL ? `database: ${scratch.env.DATABASE_URL})` : '/data/sandbox/pglite))',
    );
    const script = walkthroughScript();
    const first = await runWalkthrough(folder, script);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const output = first.stdout;

    // Credentials answer metadata; a pipe is created with a vault reference, read, and its settings.
    expect(output).toContain('"kind":"secret","name":"demo-aws-keys"');
    expect(output).toContain('"fields":["username","password"]');
    expect(output).toMatch(/"result":\{"id":"[0-9a-f-]{36}","serviceId":"[0-9a-f-]{36}","name":"orders"/);
    // A dashboard read with its ETag, a replace with If-Match, the same If-Match again refused.
    expect(output).toMatch(/^ETag: "[0-9a-f]+"$/m);
    expect(output).toContain('"type":"https://pipes-gateway.dev/problems/dashboard-changed"');
    expect(output).toMatch(/"items":\[\{"version":1,/);
    // History keeps the reference; the audit log has the writes, verifies, and names the person.
    expect(output).toContain('"accessKey":{"$secret":"demo-aws-keys"}');
    expect(output).toContain('"action":"pipe.create"');
    expect(output).toMatch(/\{"ok":true,"checked":\d+/);
    expect(output).toContain('"actor":"user:dev@example.com"');

    // No secret in anything the walkthrough printed: the one it stored, the demo vault secret the
    // gateway sent upstream in its place, the simulators' own credentials, the caller's key.
    const planted = /"password": ?"([^"]+)"/.exec(script)![1];
    const settings = readFileSync(join(folder, 'data/sandbox/sandbox.env'), 'utf8');
    const pipesUrl = /pipes API simulator: +(\S+)/.exec(banner)![1];
    const recorded = (await (await fetch(`${pipesUrl}/__sandbox/requests`)).json()) as {
      requests: { method: string; body?: { source?: { kinesis?: { accessKey?: { secretKey: string } } } } }[];
    };
    const sentUpstream = recorded.requests.find((request) => request.method === 'POST')!.body!.source!
      .kinesis!.accessKey!.secretKey;
    const secrets = [
      planted,
      sentUpstream,
      /\(Basic [^:]+:(\S+)\)/.exec(banner)![1],
      /\(Bearer (\S+)\)/.exec(banner)![1],
      /^KEY='(.+)'$/m.exec(settings)![1],
    ];
    expect(secrets.every((secret) => secret.length >= 16)).toBe(true);
    for (const secret of secrets) expect(output).not.toContain(secret);
    // That file holds a key: its owner alone may read it.
    expect(statSync(join(folder, 'data/sandbox/sandbox.env')).mode & 0o777).toBe(0o600);

    const second = await runWalkthrough(folder, script);
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect(second.stdout).toMatch(/\{"ok":true,"checked":\d+/);
  });

  it('refuses a second sandbox on a port in use, naming the setting that picks it', async () => {
    const pipesPort = /pipes API simulator: +http:\/\/127\.0\.0\.1:(\d+)/.exec(banner)![1];
    const second = await outcome(launchSandbox(folder, { SANDBOX_PIPES_PORT: pipesPort }));
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `pipes-gateway sandbox: failed to start: port ${pipesPort} is in use by another process: stop it, or set SANDBOX_PIPES_PORT to a free port (0 picks one)`,
    );
  });

  it('stops cleanly on SIGTERM', async () => {
    sandbox.kill('SIGTERM');
    expect((await sandboxRun).code).toBe(0);
  });
});
