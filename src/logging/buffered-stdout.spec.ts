import { spawn } from 'node:child_process';

const WRITER = 'test/fixtures/log-lines.ts';

/** Runs the writer; resolves with what reached its stdout once `done` says so or it exits. */
function runWriter(
  how: 'idle' | 'exit' | 'crash',
  lines: number,
  done: (stdout: string) => boolean = () => false,
): Promise<{ stdout: string; exitCode: number | null; running: boolean }> {
  const child = spawn(process.execPath, ['test/support/run-typescript.js', WRITER, how, String(lines)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (child.exitCode === null && done(stdout)) {
        resolve({ stdout, exitCode: null, running: true });
        child.kill();
      }
    });
    child.on('close', (exitCode) => resolve({ stdout, exitCode, running: false }));
  });
}

const parsed = (stdout: string): { line: number }[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((text) => JSON.parse(text) as { line: number });

describe('buffered stdout', () => {
  it('writes a lone line within the flush interval, without waiting for the buffer to fill', async () => {
    const result = await runWriter('idle', 1, (stdout) => stdout.includes('\n'));
    expect(result.running).toBe(true);
    expect(parsed(result.stdout)).toEqual([expect.objectContaining({ line: 0, msg: 'a line' })]);
  });

  it('writes every line, in order, when the process exits', async () => {
    const result = await runWriter('exit', 2_000);
    expect(result.exitCode).toBe(0);
    expect(parsed(result.stdout).map((entry) => entry.line)).toEqual([...Array(2_000).keys()]);
  });

  it('writes the lines logged before a crash', async () => {
    const result = await runWriter('crash', 3);
    expect(result.exitCode).not.toBe(0);
    expect(parsed(result.stdout).map((entry) => entry.line)).toEqual([0, 1, 2]);
  });
});
