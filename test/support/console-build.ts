import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const ROOT = join(__dirname, '..', '..');

export interface ConsoleBuild {
  directory: string;
  /** Every JavaScript file of the build, gzipped, in bytes. */
  gzippedJavaScriptBytes(): number;
  remove(): void;
}

/**
 * Builds the console from its source as `npm run build` does, into a folder of its own, so that
 * the suite tests the code as it is and leaves dist/ alone.
 */
export async function buildConsole(): Promise<ConsoleBuild> {
  const directory = mkdtempSync(join(tmpdir(), 'pipes-console-'));
  await promisify(execFile)(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      join(ROOT, 'console', 'vite.config.mts'),
      '--outDir',
      directory,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' } },
  );
  return {
    directory,
    gzippedJavaScriptBytes: () =>
      readdirSync(join(directory, 'assets'))
        .filter((name) => name.endsWith('.js'))
        .reduce((total, name) => total + gzipSync(readFileSync(join(directory, 'assets', name))).length, 0),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}
