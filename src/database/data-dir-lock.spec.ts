import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertDataDirFree, CLAIM_SOCKET, DataDirInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock';

/** A pid that no process has: one that just ended. */
function endedPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

/** Leaves a socket file at `path` that no one listens on: its process was killed. */
function leaveStaleSocket(path: string): void {
  const script = `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`;
  spawnSync(process.execPath, ['-e', script]);
  expect(statSync(path).isSocket()).toBe(true);
}

/** Refusal of a second lockDataDir on `dataDir`, as an error (or null if it was not refused). */
function refusal(dataDir: string): Promise<unknown> {
  return lockDataDir(dataDir).then(
    (release) => (release(), null),
    (error: unknown) => error,
  );
}

const onLinux = process.platform === 'linux' ? it : it.skip;
const onUnix = process.platform === 'win32' ? it.skip : it;

describe('lockDataDir', () => {
  let dataDir: string;
  const lockPath = () => join(dataDir, LOCK_FILE);
  const holder = () => JSON.parse(readFileSync(lockPath(), 'utf8')) as Record<string, unknown>;
  const plant = (content: Record<string, unknown>) =>
    writeFileSync(
      lockPath(),
      JSON.stringify({
        hostname: hostname(),
        command: 'node gateway',
        startedAt: 'then',
        bootTicks: null,
        ...content,
      }),
    );

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'pgw-lock-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('names this process in the lock file, and removes it on release', async () => {
    const release = await lockDataDir(dataDir);
    expect(holder()).toMatchObject({
      pid: process.pid,
      hostname: hostname(),
      command: expect.stringMatching(/^node/),
    });
    expect(readdirSync(dataDir).sort()).toEqual([LOCK_FILE, CLAIM_SOCKET].sort());
    release();
    release();
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('refuses a folder held by a running process, naming it and what to do', async () => {
    const release = await lockDataDir(dataDir);
    try {
      const refused = await refusal(dataDir);
      expect(refused).toBeInstanceOf(DataDirInUseError);
      expect((refused as Error).message).toMatch(
        new RegExp(
          `^The data folder .* is in use by process ${process.pid} \\(this one\\) \\(node .*, started `,
        ),
      );
      expect((refused as Error).message).toMatch(/Stop that process first/);
      await expect(assertDataDirFree(dataDir)).rejects.toThrow(DataDirInUseError);
    } finally {
      release();
    }
    await expect(assertDataDirFree(dataDir)).resolves.toBeUndefined();
  });

  onUnix('keeps the folder when its lock file is deleted: the socket still holds it', async () => {
    const release = await lockDataDir(dataDir);
    try {
      unlinkSync(lockPath());
      expect(((await refusal(dataDir)) as Error).message).toMatch(
        new RegExp(
          `^The data folder .* is in use by process ${process.pid} \\(this one\\) \\(node .*, started `,
        ),
      );
      await expect(assertDataDirFree(dataDir)).rejects.toThrow(DataDirInUseError);
      // The refused attempt left no lock file of its own.
      expect(existsSync(lockPath())).toBe(false);
    } finally {
      release();
    }
    (await lockDataDir(dataDir))();
  });

  it('takes over the lock of a process that is gone', async () => {
    plant({ pid: endedPid() });
    const release = await lockDataDir(dataDir);
    expect(holder()).toMatchObject({ pid: process.pid });
    release();
  });

  it('takes over a lock file that is not a lock', async () => {
    writeFileSync(lockPath(), '{"pid":');
    (await lockDataDir(dataDir))();
    expect(existsSync(lockPath())).toBe(false);
  });

  onLinux(
    'takes over a lock whose pid now belongs to another process (Linux: start times differ)',
    async () => {
      // Our parent runs, but it is not the process that wrote this lock: it started at another time.
      plant({ pid: process.ppid, bootTicks: '1' });
      (await lockDataDir(dataDir))();
    },
  );

  it("refuses another host's lock, which it cannot check, naming the host and the file", async () => {
    plant({ pid: endedPid(), hostname: 'elsewhere.example' });
    await expect(lockDataDir(dataDir)).rejects.toThrow(
      new RegExp(
        `in use by process \\d+ .* on host elsewhere\\.example.*delete ${lockPath().replace(/\//g, '\\/')}`,
      ),
    );
  });

  it('clears a recovery left by a process that died in it', async () => {
    plant({ pid: endedPid() });
    writeFileSync(
      join(dataDir, 'gateway.lock.recovering'),
      JSON.stringify({
        pid: endedPid(),
        hostname: hostname(),
        command: 'x',
        startedAt: 'then',
        bootTicks: null,
      }),
    );
    (await lockDataDir(dataDir))();
    expect(readdirSync(dataDir)).toEqual([]);
  });

  onUnix('takes over a socket file that no one listens on, left by a process that was killed', async () => {
    leaveStaleSocket(join(dataDir, CLAIM_SOCKET));
    const release = await lockDataDir(dataDir);
    try {
      expect(await refusal(dataDir)).toBeInstanceOf(DataDirInUseError);
    } finally {
      release();
    }
    expect(readdirSync(dataDir)).toEqual([]);
  });

  onUnix("takes over a file in the socket's place that is no socket", async () => {
    writeFileSync(join(dataDir, CLAIM_SOCKET), 'not a socket');
    (await lockDataDir(dataDir))();
    expect(readdirSync(dataDir)).toEqual([]);
  });

  onLinux(
    'is not kept from the folder by a process listening on its former abstract-namespace name',
    async () => {
      // Any local user could compute this name and listen on it first.
      const { dev, ino } = statSync(dataDir);
      const identity = createHash('sha256').update(`${dev}:${ino}`).digest('hex').slice(0, 32);
      const squatter = createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => squatter.listen(`\0pipes-gateway/data-dir/${identity}`, resolve));
      try {
        const release = await lockDataDir(dataDir);
        expect(await refusal(dataDir)).toBeInstanceOf(DataDirInUseError);
        release();
      } finally {
        await new Promise((resolve) => squatter.close(resolve));
      }
    },
  );

  onLinux('holds a folder whose socket path is too long for a socket address (Linux)', async () => {
    let deep = dataDir;
    while (join(deep, CLAIM_SOCKET).length <= 108) deep = join(deep, 'a-folder-of-some-depth');
    mkdirSync(deep, { recursive: true });
    const release = await lockDataDir(deep);
    try {
      expect(statSync(join(deep, CLAIM_SOCKET)).isSocket()).toBe(true);
      unlinkSync(join(deep, LOCK_FILE));
      expect(((await refusal(deep)) as Error).message).toContain(
        `is in use by process ${process.pid} (this one)`,
      );
      await expect(assertDataDirFree(deep)).rejects.toThrow(DataDirInUseError);
    } finally {
      release();
    }
    expect(readdirSync(deep)).toEqual([]);
    await expect(assertDataDirFree(deep)).resolves.toBeUndefined();
  });
});
