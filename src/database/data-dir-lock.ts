import { closeSync, linkSync, lstatSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
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
/** The socket the holder listens on, in the folder itself (see lockDataDir). */
export const CLAIM_SOCKET = 'gateway.sock';
// Taken only while a stale lock is replaced, so that two processes never both replace it.
const RECOVERY_FILE = 'gateway.lock.recovering';
// How long a process refused the folder waits for its holder to say who it is.
const ASK_HOLDER_TIMEOUT_MS = 3_000;
// A socket address holds 108 bytes, the last of them a NUL.
const MAX_SOCKET_PATH_BYTES = 107;
// Rounds of finding a claim stale and removing it before giving up: others may be racing for it.
const TAKE_ATTEMPTS = 20;

/**
 * Takes the embedded data folder `dataDir` (which must exist) for this process, with two claims.
 *
 * A listening Unix socket inside the folder (CLAIM_SOCKET): only those who may write the folder
 * can create it, so no other user can take the folder first, and the kernel stops the listening
 * when the process ends however it ends. A second process finds it listening and its holder tells
 * who it is; a socket file that no one listens on any more (its process was killed) is replaced.
 * On Windows there is no such socket, and the lock file alone holds the folder.
 *
 * Then the lock file, which names the process, its command and start time for people and for
 * processes the socket cannot reach (another host, on a shared folder). A lock whose process is
 * gone (killed, crashed) is taken over; one whose process runs, on this host or one this host
 * cannot check, is refused with DataDirInUseError. Answers the function that releases both (also
 * run if the process exits first).
 */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  const lockPath = join(dataDir, LOCK_FILE);
  const mine = ownHolder();
  const releaseSocket = await claimSocket(dataDir, lockPath, mine);
  let releaseFile: () => void;
  try {
    releaseFile = takeLockFile(dataDir, lockPath, mine);
  } catch (error) {
    releaseSocket();
    throw error;
  }
  const release = () => {
    process.removeListener('exit', release);
    releaseFile();
    releaseSocket();
  };
  process.once('exit', release);
  return release;
}

/** Throws DataDirInUseError when a running process holds `dataDir`; takes nothing. */
export async function assertDataDirFree(dataDir: string): Promise<void> {
  const lockPath = join(dataDir, LOCK_FILE);
  const address = claimAddress(dataDir);
  let claimant: DataDirHolder | null | undefined;
  try {
    claimant = address === null ? undefined : await askHolder(address.path);
  } finally {
    address?.close();
  }
  if (claimant !== undefined) {
    throw new DataDirInUseError(dataDir, claimant ?? readHolder(lockPath) ?? null, lockPath);
  }
  const holder = readHolder(lockPath);
  if (holder && isRunning(holder)) throw new DataDirInUseError(dataDir, holder, lockPath);
}

/** Where the folder's claim socket is reached, and what to close once done with it. */
interface ClaimAddress {
  path: string;
  close(): void;
}

/**
 * The claim socket's address: its path, or on Linux, when that path is too long for a socket
 * address, the same file reached through an open descriptor of the folder. Null where there is no
 * socket: on Windows, and elsewhere for a path too long.
 */
function claimAddress(dataDir: string): ClaimAddress | null {
  if (process.platform === 'win32') return null;
  const path = join(dataDir, CLAIM_SOCKET);
  if (Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES) return { path, close: () => undefined };
  if (process.platform !== 'linux') return null;
  const folder = openSync(dataDir, 'r');
  return { path: `/proc/self/fd/${folder}/${CLAIM_SOCKET}`, close: () => closeSync(folder) };
}

/**
 * Listens on the folder's claim socket, answering whoever connects with `mine`, and answers its
 * release; throws DataDirInUseError, naming the holder, when another process (or this one)
 * listens there.
 */
async function claimSocket(dataDir: string, lockPath: string, mine: DataDirHolder): Promise<() => void> {
  const address = claimAddress(dataDir);
  if (address === null) return () => undefined;
  try {
    for (let attempt = 0; attempt < TAKE_ATTEMPTS; attempt++) {
      const server = await listen(address.path, mine);
      if (server !== null) {
        let released = false;
        return () => {
          if (released) return;
          released = true;
          // Closing removes the socket file, so the folder's descriptor is kept open until then.
          server.close();
          address.close();
        };
      }
      // Seen before asking: what is removed below must be the very file no one answered on.
      const seen = fileAt(address.path);
      if (seen === undefined) continue; // removed meanwhile
      const holder = await askHolder(address.path);
      if (holder !== undefined)
        throw new DataDirInUseError(dataDir, holder ?? readHolder(lockPath) ?? null, lockPath);
      // Left by a process that ended, or a file that is no socket.
      removeStale(dataDir, address.path, () => fileAt(address.path) === seen);
    }
    throw new Error(`could not take ${address.path} of data folder ${dataDir}: it keeps changing hands`);
  } catch (error) {
    address.close();
    throw error;
  }
}

/** A server listening on `path`, or null when something is there already. */
async function listen(path: string, mine: DataDirHolder): Promise<Server | null> {
  const server = createServer((socket) => socket.end(JSON.stringify(mine)));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, resolve);
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') return null;
    throw error;
  }
  // The claim must not keep a process (the CLI) alive once its work is done.
  server.unref();
  return server;
}

/**
 * Who listens on `path`: undefined when no one does (no file, or a file nothing listens on), null
 * when someone may but did not say who in time (or said something that is not a holder, or the
 * socket refused this user).
 */
function askHolder(path: string): Promise<DataDirHolder | null | undefined> {
  return new Promise((resolve) => {
    let answer = '';
    let nobody = false;
    const socket = connect(path);
    socket.setTimeout(ASK_HOLDER_TIMEOUT_MS, () => socket.destroy());
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      nobody = error.code === 'ECONNREFUSED' || error.code === 'ENOENT';
    });
    socket.on('close', () => resolve(nobody ? undefined : parseHolder(answer)));
  });
}

/** The lock file part of lockDataDir: answers its release. */
function takeLockFile(dataDir: string, lockPath: string, mine: DataDirHolder): () => void {
  for (let attempt = 0; attempt < TAKE_ATTEMPTS; attempt++) {
    if (createExclusive(lockPath, mine)) {
      // Only our own lock: after a takeover by mistake the file names someone else.
      return () => {
        if (readHolder(lockPath)?.pid === mine.pid) unlinkQuietly(lockPath);
      };
    }
    const holder = readHolder(lockPath);
    if (holder === undefined) continue; // released meanwhile
    if (holder !== null && isRunning(holder)) throw new DataDirInUseError(dataDir, holder, lockPath);
    // Gone, or a file that is not a lock (written whole, it can only be damaged): replace it.
    const seen = JSON.stringify(holder);
    removeStale(dataDir, lockPath, () => JSON.stringify(readHolder(lockPath)) === seen);
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
 * Removes the stale claim at `path`, unless `unchanged` finds it changed meanwhile. The recovery
 * file makes this one process at a time: otherwise two could find the same stale claim, and the
 * slower one would remove the claim the faster one had just made.
 */
function removeStale(dataDir: string, path: string, unchanged: () => boolean): void {
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
    if (unchanged()) unlinkQuietly(path);
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

/**
 * Which file is at `path` (not followed, if a link): its inode and change time, since a removed
 * file's inode may be given to the next one. Undefined when there is none.
 */
function fileAt(path: string): string | undefined {
  try {
    const { ino, ctimeNs } = lstatSync(path, { bigint: true });
    return `${ino}:${ctimeNs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
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
