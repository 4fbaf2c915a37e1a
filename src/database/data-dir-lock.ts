import { createHash } from 'node:crypto';
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, Server } from 'node:net';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';

/** Who holds an embedded data folder, as its lock file says. */
export interface DataDirHolder {
  pid: number;
  hostname: string;
  command: string;
  startedAt: string;
  /** Linux: the process's start time in clock ticks since boot, so a reused pid is not mistaken for it. */
  bootTicks: string | null;
}

/** The folder is open in another process (or another connection of this one). */
export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';

  /** `holder` null: a process of this host holds it but did not say which. */
  constructor(
    readonly dataDir: string,
    readonly holder: DataDirHolder | null,
    lockPath: string,
  ) {
    const who =
      holder === null
        ? 'another process of this host, which did not say which'
        : `process ${holder.pid}${holder.pid === process.pid ? ' (this one)' : ''} ` +
          `(${holder.command}, started ${holder.startedAt})`;
    super(
      holder === null || holder.hostname === hostname()
        ? `The data folder ${dataDir} is in use by ${who}: only one process may open an embedded ` +
            'database. Stop that process first; while it runs, do the same through its API (admin routes, ' +
            'GATEWAY_ADMIN_TOKEN). A second gateway needs a DATA_DIR of its own, or Postgres (DATABASE_URL).'
        : `The data folder ${dataDir} is in use by ${who} on host ${holder.hostname}, which this host cannot ` +
            `check: only one process may open an embedded database. If that process is gone, delete ${lockPath}.`,
    );
  }
}

export const LOCK_FILE = 'gateway.lock';
// Taken only while a stale lock is replaced, so that two processes never both replace it.
const RECOVERY_FILE = 'gateway.lock.recovering';
// How long a process refused the folder waits for its holder to say who it is.
const ASK_HOLDER_TIMEOUT_MS = 3_000;

/**
 * Takes the embedded data folder `dataDir` (which must exist) for this process, with two claims.
 *
 * On Linux, a listening socket in the abstract namespace, named after the folder's identity
 * (device and inode): it is no file, so nothing can delete it, and the kernel frees it when the
 * process ends however it ends. A second process on the same host finds it taken, and its holder
 * tells who it is. Elsewhere there is no such socket, and the lock file alone holds the folder.
 *
 * Then the lock file, which names the process, its command and start time for people and for
 * processes the socket cannot reach (another host, or another network namespace, on a shared
 * folder). A lock whose process is gone (killed, crashed) is taken over; one whose process runs, on
 * this host or one this host cannot check, is refused with DataDirInUseError. Answers the function
 * that releases both (also run if the process exits first).
 */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  const lockPath = join(dataDir, LOCK_FILE);
  const mine = ownHolder();
  const claim = await claimSocket(dataDir, lockPath, mine);
  try {
    const releaseFile = takeLockFile(dataDir, lockPath, mine);
    return () => {
      releaseFile();
      claim?.close();
    };
  } catch (error) {
    claim?.close();
    throw error;
  }
}

/** Throws DataDirInUseError when a running process holds `dataDir`; takes nothing. */
export async function assertDataDirFree(dataDir: string): Promise<void> {
  const lockPath = join(dataDir, LOCK_FILE);
  const address = claimAddress(dataDir);
  const claimant = address === null ? undefined : await askHolder(address);
  if (claimant !== undefined) {
    throw new DataDirInUseError(dataDir, claimant ?? readHolder(lockPath) ?? null, lockPath);
  }
  const holder = readHolder(lockPath);
  if (holder && isRunning(holder)) throw new DataDirInUseError(dataDir, holder, lockPath);
}

/** The abstract socket address that claims `dataDir` on this host; null where there are none. */
function claimAddress(dataDir: string): string | null {
  if (process.platform !== 'linux') return null;
  const { dev, ino } = statSync(dataDir);
  const identity = createHash('sha256').update(`${dev}:${ino}`).digest('hex').slice(0, 32);
  return `\0pipes-gateway/data-dir/${identity}`;
}

/**
 * Listens on the folder's claim address, answering whoever connects with `mine`; throws
 * DataDirInUseError, naming the holder, when another process (or this one) listens there.
 */
async function claimSocket(dataDir: string, lockPath: string, mine: DataDirHolder): Promise<Server | null> {
  const address = claimAddress(dataDir);
  if (address === null) return null;
  const server = createServer((socket) => socket.end(JSON.stringify(mine)));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(address, resolve);
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    const holder = (await askHolder(address)) ?? readHolder(lockPath) ?? null;
    throw new DataDirInUseError(dataDir, holder, lockPath);
  }
  // The claim must not keep a process (the CLI) alive once its work is done.
  server.unref();
  return server;
}

/**
 * Who listens on `address`: undefined when no one does, null when someone does but did not say
 * who in time (or said something that is not a holder).
 */
function askHolder(address: string): Promise<DataDirHolder | null | undefined> {
  return new Promise((resolve) => {
    let answer = '';
    let listening = false;
    const socket = connect(address, () => (listening = true));
    socket.setTimeout(ASK_HOLDER_TIMEOUT_MS, () => socket.destroy());
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(listening ? parseHolder(answer) : undefined));
  });
}

/** The lock file part of lockDataDir: answers its release. */
function takeLockFile(dataDir: string, lockPath: string, mine: DataDirHolder): () => void {
  for (let attempt = 0; attempt < 20; attempt++) {
    if (createExclusive(lockPath, mine)) {
      const release = () => {
        process.removeListener('exit', release);
        // Only our own lock: after a takeover by mistake the file names someone else.
        if (readHolder(lockPath)?.pid === mine.pid) unlinkQuietly(lockPath);
      };
      process.once('exit', release);
      return release;
    }
    const holder = readHolder(lockPath);
    if (holder === undefined) continue; // released meanwhile
    if (holder !== null && isRunning(holder)) throw new DataDirInUseError(dataDir, holder, lockPath);
    // Gone, or a file that is not a lock (written whole, it can only be damaged): replace it.
    replaceStale(dataDir, lockPath, holder);
  }
  throw new Error(`could not take the lock ${lockPath} of data folder ${dataDir}: it keeps changing hands`);
}

function ownHolder(): DataDirHolder {
  return {
    pid: process.pid,
    hostname: hostname(),
    // The program and its first arguments, enough to recognise it (a gateway, which CLI command).
    command: [basename(process.execPath), ...process.argv.slice(1, 5)].join(' ').slice(0, 200),
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    bootTicks: bootTicksOf(process.pid),
  };
}

/**
 * Creates `path` holding `holder`, unless it exists. The content is written to a file of its own
 * first and linked into place, so no one ever reads a lock file that is only half written.
 */
function createExclusive(path: string, holder: DataDirHolder): boolean {
  const draft = `${path}.${process.pid}.draft`;
  writeFileSync(draft, `${JSON.stringify(holder)}\n`, { mode: 0o644 });
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkQuietly(draft);
  }
}

/** The holder the lock file names; undefined when there is no file, null when it cannot be read. */
function readHolder(path: string): DataDirHolder | null | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseHolder(text);
}

function parseHolder(text: string): DataDirHolder | null {
  try {
    const holder = JSON.parse(text) as DataDirHolder;
    return Number.isInteger(holder.pid) && typeof holder.hostname === 'string' ? holder : null;
  } catch {
    return null;
  }
}

/** Whether the holder may still run: always for another host's process, which cannot be checked. */
function isRunning(holder: DataDirHolder): boolean {
  if (holder.hostname !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A pid the system gave to another process since: not the holder.
  const ticks = bootTicksOf(holder.pid);
  return holder.bootTicks === null || ticks === null || ticks === holder.bootTicks;
}

/**
 * Removes the stale lock `seen`, unless it changed meanwhile. The recovery file makes this one
 * process at a time: otherwise two could find the same stale lock, and the slower one would remove
 * the lock the faster one had just made.
 */
function replaceStale(dataDir: string, lockPath: string, seen: DataDirHolder | null): void {
  const recoveryPath = join(dataDir, RECOVERY_FILE);
  if (!createExclusive(recoveryPath, ownHolder())) {
    const recovering = readHolder(recoveryPath);
    // A recoverer that died in its few milliseconds of work leaves the file: remove it, retry.
    if (recovering === null || (recovering !== undefined && !isRunning(recovering)))
      unlinkQuietly(recoveryPath);
    else sleep(10);
    return;
  }
  try {
    if (JSON.stringify(readHolder(lockPath)) === JSON.stringify(seen)) unlinkQuietly(lockPath);
  } finally {
    unlinkQuietly(recoveryPath);
  }
}

/** Linux only: field 22 of /proc/<pid>/stat, the start time in clock ticks after boot. */
function bootTicksOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
