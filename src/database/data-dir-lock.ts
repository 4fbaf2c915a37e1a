import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
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

  constructor(
    readonly dataDir: string,
    readonly holder: DataDirHolder,
    lockPath: string,
  ) {
    const who =
      `process ${holder.pid}${holder.pid === process.pid ? ' (this one)' : ''} ` +
      `(${holder.command}, started ${holder.startedAt})`;
    super(
      holder.hostname === hostname()
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

/**
 * Takes the embedded data folder `dataDir` (which must exist) for this process: a lock file there
 * names the process, its command and start time. A lock whose process is gone (killed, crashed) is
 * taken over; one whose process runs, on this host or one this host cannot check, is refused with
 * DataDirInUseError. Answers the function that releases it (also run if the process exits first).
 */
export function lockDataDir(dataDir: string): () => void {
  const lockPath = join(dataDir, LOCK_FILE);
  const mine = ownHolder();
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

/** Throws DataDirInUseError when a running process holds `dataDir`; takes nothing. */
export function assertDataDirFree(dataDir: string): void {
  const lockPath = join(dataDir, LOCK_FILE);
  const holder = readHolder(lockPath);
  if (holder && isRunning(holder)) throw new DataDirInUseError(dataDir, holder, lockPath);
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
