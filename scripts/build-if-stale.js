#!/usr/bin/env node
// Builds before `npm start`, `npm run sandbox` and `npm run cli` only what is older than its
// sources: the gateway (tsc) when a file under src/ or sandbox/ (or a tsconfig, package.json) is
// newer than the last build, the console (vite) likewise for console/. `--gateway` builds the
// gateway alone (the CLI serves no console). `npm run build` still builds everything.
const { spawnSync } = require('node:child_process');
const { readdirSync, statSync, utimesSync, mkdirSync, closeSync, openSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
// Touched after each build here: tsc leaves its outputs alone when their text did not change.
const GATEWAY_STAMP = join(ROOT, 'dist', '.gateway-built');
const CONSOLE_STAMP = join(ROOT, 'dist', '.console-built');

const PARTS = [
  {
    name: 'gateway',
    stamp: GATEWAY_STAMP,
    sources: ['src', 'sandbox', 'tsconfig.json', 'tsconfig.build.json', 'package.json'],
    command: [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
  },
  {
    name: 'console',
    stamp: CONSOLE_STAMP,
    sources: ['console', 'package.json'],
    command: [
      join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'console/vite.config.mts',
      '--logLevel',
      'warn',
    ],
  },
];

function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -Infinity;
  }
}

/** Whether any file under `path` was changed after `since` (ms); stops at the first one. */
function changedSince(path, since) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return false;
  if (!stat.isDirectory()) return stat.mtimeMs > since;
  // A file added, removed or renamed changes its folder's time.
  if (stat.mtimeMs > since) return true;
  return readdirSync(path).some(
    (entry) => entry !== 'node_modules' && changedSince(join(path, entry), since),
  );
}

function touch(path) {
  mkdirSync(join(path, '..'), { recursive: true });
  closeSync(openSync(path, 'a'));
  const now = new Date();
  utimesSync(path, now, now);
}

/** Whether a source of `part` under `root` changed after its last build (or it was never built). */
function isStale(part, root = ROOT) {
  const builtAt = mtimeOf(part.stamp);
  return part.sources.some((source) => changedSince(join(root, source), builtAt));
}

module.exports = { isStale };
if (require.main !== module) return;

const wanted = process.argv.includes('--gateway') ? PARTS.slice(0, 1) : PARTS;
for (const part of wanted) {
  if (!isStale(part)) continue;
  // The stamp's time is taken before building: a source saved during the build counts as newer.
  const startedAt = new Date();
  const result = spawnSync(process.execPath, part.command, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`building the ${part.name} failed`);
    process.exit(result.status ?? 1);
  }
  touch(part.stamp);
  utimesSync(part.stamp, startedAt, startedAt);
}
