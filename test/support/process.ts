import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts a TypeScript entry point of the gateway (src/main.ts, src/cli/main.ts) as a process of its
 * own with exactly `env` (and PATH), compiled on load (test/support/run-typescript.js).
 */
export function launch(entry: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [join(ROOT, 'test/support/run-typescript.js'), entry, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** What the process printed, and how it ended. */
export function finished(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** Runs an entry point to its end. */
export function run(entry: string, args: string[], env: Record<string, string>): Promise<Finished> {
  return finished(launch(entry, args, env));
}
