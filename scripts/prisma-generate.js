#!/usr/bin/env node
// Runs after `npm install`.
//
// 1. `prisma-schema-diff` (Prisma 6.19 under an alias, used offline by scripts/schema-sql.js)
//    declares a `prisma` bin too; point node_modules/.bin/prisma back at the real CLI.
// 2. `prisma generate` needs no schema engine, but the Prisma CLI insists that one exists and
//    tries to download it when it does not. Pointing it at any executable lets generation run
//    offline; a configured engine (PRISMA_SCHEMA_ENGINE_BINARY) wins.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const cli = require.resolve('prisma/build/index.js');
const binLink = path.join(__dirname, '..', 'node_modules', '.bin', 'prisma');
try {
  fs.rmSync(binLink, { force: true });
  fs.symlinkSync(path.relative(path.dirname(binLink), cli), binLink);
} catch (error) {
  console.warn(`could not relink ${binLink}: ${error.message}`);
}

const env = { ...process.env, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;

const result = spawnSync(process.execPath, [cli, 'generate'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
