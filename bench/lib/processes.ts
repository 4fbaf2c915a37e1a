import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A message between the runner and a child: every one names its type. */
export interface Message {
  type: string;
}

const READY_TIMEOUT_MS = 60_000;
const REPLY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 10_000;

const running = new Set<ChildProcess>();

/** A gateway start command, `[NAME=value ...] node [--flags] dist/src/main.js`, taken apart. */
export function parseStartCommand(command: string): { env: Record<string, string>; nodeOptions: string[] } {
  const match = /^((?:[A-Z_]+=\S+ )*)(?:exec )?node ((?:--\S+ )*)dist\/src\/main\.js$/.exec(command);
  if (!match) throw new Error(`not "[NAME=value ...] [exec] node [--flags] dist/src/main.js": ${command}`);
  const words = (text: string) => text.split(' ').filter(Boolean);
  return {
    env: Object.fromEntries(words(match[1]).map((setting) => setting.split('=', 2) as [string, string])),
    nodeOptions: words(match[2]),
  };
}

/** The repository's root folder, found from this file whether it runs compiled (dist/bench) or as source. */
export function repositoryRoot(): string {
  for (let folder = __dirname; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json')) && existsSync(join(folder, 'src/main.ts'))) return folder;
    if (dirname(folder) === folder) throw new Error(`no repository root above ${__dirname}`);
  }
}

/**
 * The environment settings and Node options `npm run start:prod` runs the gateway with (the
 * Dockerfile's too), so a benchmark measures the gateway as it is deployed.
 */
export function productionLaunch(): { env: Record<string, string>; nodeOptions: string[] } {
  const manifest = JSON.parse(readFileSync(join(repositoryRoot(), 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return parseStartCommand(manifest.scripts['start:prod']);
}

/**
 * Forks a compiled child script and waits for its `ready` message. Children are tracked so
 * stopAll can end every one of them, whatever went wrong in between.
 */
export async function startChild<Ready extends Message>(
  name: string,
  script: string,
  options: { args?: string[]; env?: NodeJS.ProcessEnv; execArgv?: string[]; showOutput?: boolean } = {},
): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(script, options.args ?? [], {
    env: options.env ?? process.env,
    execArgv: options.execArgv ?? [],
    // Gateway access logs go to /dev/null: written, as in production, but not read back here.
    stdio: ['ignore', options.showOutput ? 'inherit' : 'ignore', 'inherit', 'ipc'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  try {
    const ready = await reply<Ready>(child, 'ready', READY_TIMEOUT_MS);
    return { child, ready };
  } catch (error) {
    await stopChild(child);
    throw new Error(`${name} did not start: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Sends a message and waits for the answer of the given type. */
export async function ask<Reply extends Message>(
  child: ChildProcess,
  message: Message,
  replyType: string,
): Promise<Reply> {
  const answer = reply<Reply>(child, replyType, REPLY_TIMEOUT_MS);
  child.send(message);
  return answer;
}

function reply<Reply extends Message>(child: ChildProcess, type: string, timeoutMs: number): Promise<Reply> {
  return new Promise<Reply>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`no ${type} message within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: Message): void => {
      if (message?.type === type) finish(null, message as Reply);
      else if (message?.type === 'error') finish(new Error((message as Message & { error: string }).error));
    };
    const onExit = (code: number | null): void => finish(new Error(`exited with ${code}`));
    function finish(error: Error | null, message?: Reply): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(message!);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Asks a child to stop (so a CPU profile gets written), then kills it if it does not. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await stopWithin(child, 'SIGTERM', STOP_GRACE_MS);
}

/**
 * Sends `signal` to a running child and waits for it to end; past `timeoutMs`, kills it and waits
 * for that. Whether it ended within the time. The wait's timer is unreferenced: the running child
 * holds the process up, and once the child has ended nothing should.
 */
export async function stopWithin(
  child: ChildProcess,
  signal: NodeJS.Signals,
  timeoutMs: number,
): Promise<boolean> {
  const exited = once(child, 'exit');
  child.kill(signal);
  const ended = await Promise.race([exited.then(() => true), sleep(timeoutMs, false, { ref: false })]);
  if (!ended) {
    child.kill('SIGKILL');
    await exited;
  }
  return ended;
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stopChild(child)));
}

/** Resident set size of a live process, from /proc (Linux). */
export function rssBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** A process's command name and CPU times in ms, from /proc/<pid>/stat (Linux); null once it has exited. */
function processCpu(pid: number | string): { command: string; ownMs: number; childrenMs: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const close = stat.lastIndexOf(') ');
  // After the parenthesised command: utime, stime, cutime, cstime are the 12th to 15th fields, in clock ticks (10 ms).
  const fields = stat.slice(close + 2).split(' ');
  return {
    command: stat.slice(stat.indexOf('(') + 1, close),
    ownMs: (Number(fields[11]) + Number(fields[12])) * 10,
    childrenMs: (Number(fields[13]) + Number(fields[14])) * 10,
  };
}

/** CPU time (user + system, every thread) a live process has used so far, ms. */
export function cpuMs(pid: number): number {
  const cpu = processCpu(pid);
  if (!cpu) throw new Error(`process ${pid} has exited`);
  return cpu.ownMs;
}

/**
 * CPU time (ms) used so far by every Postgres process on this machine, exited backends included
 * (the postmaster collects their time as its children's): what the database spends on a
 * gateway's requests. Null when no Postgres runs here, e.g. with a remote BENCH_DATABASE_URL.
 */
export function postgresCpuMs(): number | null {
  let total: number | null = null;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cpu = processCpu(entry);
    if (cpu?.command === 'postgres') total = (total ?? 0) + cpu.ownMs + cpu.childrenMs;
  }
  return total;
}

/**
 * Waits (at most maxMs) until these processes use under a tenth of a core: requests abandoned by an
 * earlier run may still be working through the database and would skew the next measurement.
 */
export async function settle(pids: number[], maxMs = 10_000): Promise<void> {
  const window = 500;
  for (let waited = 0; waited < maxMs; waited += window) {
    const before = pids.map((pid) => cpuMs(pid));
    await sleep(window);
    const busiest = Math.max(...pids.map((pid, index) => cpuMs(pid) - before[index]));
    if (busiest < window / 10) return;
  }
}

/** Samples the peak RSS of some processes every 200 ms until stopped. */
export class RssSampler {
  private readonly peaks = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pids: number[]) {
    this.timer = setInterval(() => this.sample(), 200);
    this.sample();
  }

  private sample(): void {
    for (const pid of this.pids) {
      const rss = rssBytes(pid);
      if (rss !== null) this.peaks.set(pid, Math.max(rss, this.peaks.get(pid) ?? 0));
    }
  }

  /** Peak RSS in MB per pid since start. */
  stop(): Map<number, number> {
    clearInterval(this.timer);
    this.sample();
    return new Map([...this.peaks].map(([pid, bytes]) => [pid, bytes / 1024 / 1024]));
  }
}

/**
 * Runs main with every child stopped afterwards, on success, failure or Ctrl-C, and the cleanup
 * given (e.g. dropping the database) run once the children are gone.
 */
export function runMain(main: (cleanups: (() => Promise<void>)[]) => Promise<void>): void {
  const cleanups: (() => Promise<void>)[] = [];
  let cleaning: Promise<void> | null = null;
  const cleanup = (): Promise<void> =>
    (cleaning ??= (async () => {
      await stopAll();
      for (const step of cleanups.reverse()) {
        await step().catch((error: unknown) => console.error(`cleanup: ${String(error)}`));
      }
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanup().then(() => process.exit(130)));
  }
  main(cleanups)
    .then(cleanup)
    .then(() => process.exit(0))
    .catch(async (error: unknown) => {
      console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      await cleanup();
      process.exit(1);
    });
}

/**
 * A full garbage collection of this process. The runner is also the closed loop's load generator,
 * and what that leaves in its old generation set off full collections during the fixed-rate
 * stream that followed: a paused sender sends its backlog at once and times the answers late. Collected just before the stream, it has room to run on.
 */
export function collectRunnerGarbage(): void {
  // Exposed on first use, not on import: other processes load this module too.
  if (!runnerGc) {
    setFlagsFromString('--expose-gc');
    runnerGc = runInNewContext('gc') as () => void;
  }
  runnerGc();
}

let runnerGc: (() => void) | undefined;
