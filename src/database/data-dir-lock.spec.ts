import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertDataDirFree, DataDirInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock';

/** A pid that no process has: one that just ended. */
function endedPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

const onLinux = process.platform === 'linux' ? it : it.skip;

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
    expect(readdirSync(dataDir)).toEqual([LOCK_FILE]);
    release();
    release();
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('refuses a folder held by a running process, naming it and what to do', async () => {
    const release = await lockDataDir(dataDir);
    try {
      const refusal = await lockDataDir(dataDir).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(DataDirInUseError);
      expect((refusal as Error).message).toMatch(
        new RegExp(
          `^The data folder .* is in use by process ${process.pid} \\(this one\\) \\(node .*, started `,
        ),
      );
      expect((refusal as Error).message).toMatch(/Stop that process first/);
      await expect(assertDataDirFree(dataDir)).rejects.toThrow(DataDirInUseError);
    } finally {
      release();
    }
    await expect(assertDataDirFree(dataDir)).resolves.toBeUndefined();
  });

  onLinux('keeps the folder when its lock file is deleted: the claim is no file (Linux)', async () => {
    const release = await lockDataDir(dataDir);
    try {
      unlinkSync(lockPath());
      const refusal = await lockDataDir(dataDir).then(
        () => null,
        (error: unknown) => error,
      );
      expect((refusal as Error).message).toMatch(
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
});
