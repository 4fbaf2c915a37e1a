import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { productionLaunch, repositoryRoot, stopWithin } from '../processes';

/**
 * How a replica is started: the built gateway (`dist/src/main.js`, as `npm run start:prod` runs
 * it), or its TypeScript source compiled on load (test/support/run-typescript.js), for a test that
 * runs the code as it is without a build. Both with the Node options and environment of start:prod.
 */
export type ReplicaBuild = 'dist' | 'source';

/** A port free now, for a process started later (a replica restarted keeps its port). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** One gateway process of the cluster, on a port of its own, started again as often as asked. */
export class Replica {
  private child: ChildProcess | null = null;
  /** How the last process ended: the signal or exit code, once it has. */
  lastExit: string | null = null;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly build: ReplicaBuild,
    private readonly env: NodeJS.ProcessEnv,
    /** Where its output goes, appended over its restarts. */
    private readonly logFile: string,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the process and waits until its readiness route answers 200. */
  async start(timeoutMs: number): Promise<void> {
    const root = repositoryRoot();
    const launch = productionLaunch();
    const entry =
      this.build === 'dist'
        ? [join(root, 'dist/src/main.js')]
        : [join(root, 'test/support/run-typescript.js'), 'src/main.ts'];
    const log = openSync(this.logFile, 'a');
    const child = spawn(process.execPath, [...launch.nodeOptions, ...entry], {
      cwd: root,
      env: { ...launch.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    this.child = child;
    this.lastExit = null;
    child.once('exit', (code, signal) => (this.lastExit = signal ?? `exit ${code}`));
    for (const started = Date.now(); ; await sleep(100)) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(
          `${this.name} ended while starting (${child.signalCode ?? `exit ${child.exitCode}`}); see ${this.logFile}`,
        );
      if (Date.now() - started > timeoutMs)
        throw new Error(`${this.name} not ready within ${timeoutMs} ms; see ${this.logFile}`);
      const status = await fetch(`${this.url}/health/ready`).then(
        (answer) => answer.status,
        () => 0,
      );
      if (status === 200) return;
    }
  }

  /** Sends `signal` and waits for the process to end; the exit it ended with. */
  async stop(signal: 'SIGTERM' | 'SIGKILL', timeoutMs = 60_000): Promise<string> {
    const child = this.child;
    if (!child || this.lastExit !== null) return this.lastExit ?? 'not running';
    if (!(await stopWithin(child, signal, timeoutMs)))
      throw new Error(`${this.name} did not end within ${timeoutMs} ms of ${signal}`);
    return this.lastExit!;
  }
}
