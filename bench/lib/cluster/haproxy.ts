import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { openSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Debian's HAProxy, where .ci/run installs it. */
export const HAPROXY = 'haproxy';
export const NO_HAPROXY = "Debian's haproxy is not installed (apt-get install -y haproxy)";

/** Whether `haproxy` runs here: asked once, synchronously, so a test is skipped by name without it. */
export const hasHaproxy: boolean = spawnSync(HAPROXY, ['-v'], { stdio: 'ignore' }).status === 0;

/** How long the balancer keeps a client's idle connection open. */
export const BALANCER_KEEP_ALIVE_MS = 10_000;

/** How HAProxy watches the replicas: what makes a stopping replica leave the balancer in time. */
export interface HealthChecks {
  /** Between two checks of a replica, ms. */
  intervalMs: number;
  /** Failed checks in a row that take a replica out, and passed ones that bring it back. */
  fall: number;
  rise: number;
}

// A draining replica's 503 comes at once: two of them take it out within about half a second. A
// check that times out counts as failed too, so one slow answer of a busy replica does not.
export const HEALTH_CHECKS: HealthChecks = { intervalMs: 250, fall: 2, rise: 2 };

/**
 * The configuration of the balancer in front of the replicas: each request goes to the replica
 * with the fewest open connections (event streams are long), among those whose readiness route
 * answers 200. A request whose connection to a replica could not be made (one just killed) is sent
 * to another; one that reached a replica is never sent twice. Event streams pass unbuffered, and
 * stay open as long as their heartbeats come.
 */
export function haproxyConfig(options: {
  port: number;
  replicas: { name: string; port: number }[];
  adminSocket: string;
  checks: HealthChecks;
}): string {
  const { intervalMs, fall, rise } = options.checks;
  return [
    'global',
    '  maxconn 4096',
    `  stats socket ${options.adminSocket} mode 600 level admin`,
    'defaults',
    '  mode http',
    '  option redispatch',
    '  retries 3',
    '  retry-on conn-failure',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    `  timeout http-keep-alive ${BALANCER_KEEP_ALIVE_MS}ms`,
    '  timeout check 5s',
    'frontend gateway',
    `  bind 127.0.0.1:${options.port}`,
    '  option forwardfor',
    '  default_backend replicas',
    'backend replicas',
    '  balance leastconn',
    '  option httpchk GET /health/ready',
    '  http-check expect status 200',
    `  default-server check inter ${intervalMs} fall ${fall} rise ${rise}`,
    ...options.replicas.map((replica) => `  server ${replica.name} 127.0.0.1:${replica.port}`),
    '',
  ].join('\n');
}

/** HAProxy as a process of its own (foreground), with its admin socket to read and steer it. */
export class Haproxy {
  private constructor(
    private readonly child: ChildProcess,
    private readonly adminSocket: string,
    readonly url: string,
  ) {}

  static async start(options: {
    folder: string;
    port: number;
    replicas: { name: string; port: number }[];
    checks?: HealthChecks;
  }): Promise<Haproxy> {
    const adminSocket = join(options.folder, 'haproxy.sock');
    const file = join(options.folder, 'haproxy.cfg');
    writeFileSync(file, haproxyConfig({ ...options, adminSocket, checks: options.checks ?? HEALTH_CHECKS }));
    const check = spawnSync(HAPROXY, ['-c', '-q', '-f', file], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`haproxy refused its configuration: ${check.stderr}`);
    const log = openSync(join(options.folder, 'haproxy.log'), 'a');
    const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', log, log] });
    const proxy = new Haproxy(child, adminSocket, `http://127.0.0.1:${options.port}`);
    for (let waited = 0; ; waited += 100) {
      if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}`);
      if (await proxy.command('show info').catch(() => null)) return proxy;
      if (waited > 10_000) throw new Error('haproxy did not open its admin socket within 10 s');
      await sleep(100);
    }
  }

  /** One admin command, and what HAProxy answered. */
  command(text: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.adminSocket);
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
      socket.end(`${text}\n`);
    });
  }

  /** Each replica's state as the balancer sees it: `UP`, `DOWN`, `MAINT`, or a transition. */
  async states(): Promise<Map<string, string>> {
    const csv = await this.command('show stat');
    const states = new Map<string, string>();
    for (const line of csv.split('\n')) {
      const [proxy, server, ...fields] = line.split(',');
      // Column 18 of the CSV is `status`; pxname and svname are the first two.
      if (proxy === 'replicas' && server !== 'BACKEND' && server !== 'FRONTEND')
        states.set(server, fields[15]);
    }
    return states;
  }

  /** Waits until the balancer sends requests to `replica` (its checks passed `rise` times). */
  async waitUntilUp(replica: string, timeoutMs: number): Promise<void> {
    for (const started = Date.now(); ;) {
      if ((await this.states()).get(replica) === 'UP') return;
      if (Date.now() - started > timeoutMs)
        throw new Error(`${replica} not up in haproxy within ${timeoutMs} ms`);
      await sleep(50);
    }
  }

  /** Takes a replica out of the balancer (`disable`), or puts it back (`enable`), as an operator would. */
  async setServer(replica: string, action: 'enable' | 'disable'): Promise<void> {
    await this.command(`${action} server replicas/${replica}`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    await exited;
  }
}
