import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

describe('tracing/register', () => {
  it('starts the SDK on the main thread only when preloaded, not again in each worker thread', () => {
    const startTracing = JSON.stringify(join(__dirname, 'start-tracing.ts'));
    const script = `
      const { Worker } = require('node:worker_threads');
      const started = () => require(${startTracing}).tracingStarted() !== null;
      console.log('main thread: ' + started());
      new Worker(\`console.log('worker thread: ' + (require(${startTracing}).tracingStarted() !== null))\`, { eval: true });
    `;
    const run = spawnSync(
      process.execPath,
      [
        '--require',
        './test/support/typescript-hook.js',
        '--require',
        './src/tracing/register.ts',
        '-e',
        script,
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        // Nothing is traced, so nothing is sent there.
        env: { PATH: process.env.PATH, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' },
      },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n').sort()).toEqual(['main thread: true', 'worker thread: false']);
  }, 70_000);
});
