import type { ChildProcess } from 'node:child_process';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { endedLines } from './ended-lines';
import { testGatewayEnv } from './gateway';
import { launch } from './process';

export interface GatewayProcess {
  url: string;
  /** supertest bound to the running server. */
  http: TestAgent;
  /** What the process printed to stdout so far: its start banner and its JSON log lines. */
  stdout(): string;
  /** The log lines it has ended so far, parsed. */
  logLines(): Record<string, unknown>[];
  /** Stops it as Ctrl-C does (no drain), and waits for its end. */
  close(): Promise<void>;
}

// Every module compiled as it loads: long on a busy machine.
const START_TIMEOUT_MS = 150_000;

/**
 * The gateway as `npm start` runs it, src/main.ts in a process of its own, with the settings of an
 * in-process test gateway (testGatewayEnv) and `env` over them: for what must be in place before any
 * module loads, as the tracing SDK's instrumentation is.
 */
export async function startGatewayProcess(env: Record<string, string>): Promise<GatewayProcess> {
  const child = launch('src/main.ts', [], testGatewayEnv(env));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await listeningUrl(
    child,
    () => stdout,
    () => stderr,
  );
  return {
    url,
    http: request(url),
    stdout: () => stdout,
    logLines: () =>
      endedLines(stdout)
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    close: async () => {
      if (child.exitCode === null) child.kill('SIGINT');
      await ended;
    },
  };
}

function listeningUrl(child: ChildProcess, stdout: () => string, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the gateway did not start in ${START_TIMEOUT_MS} ms:\n${stdout()}\n${stderr()}`));
    }, START_TIMEOUT_MS);
    const look = (): void => {
      const listening = /pipes-gateway listening on (http:\/\/\S+)/.exec(stdout());
      if (listening === null) return;
      clearTimeout(timer);
      child.stdout!.off('data', look);
      resolve(listening[1]);
    };
    child.stdout!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited with ${code} before listening:\n${stdout()}\n${stderr()}`));
    });
  });
}
