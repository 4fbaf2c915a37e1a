#!/usr/bin/env node
// Prints the SQL that takes a database from one Prisma schema to another, offline.
//
//   node scripts/schema-sql.js                    empty database -> prisma/schema.prisma
//   node scripts/schema-sql.js --from REV         schema.prisma at git REV -> working copy
//                                                 (the body of the next migration)
//
// It runs the WebAssembly schema engine bundled with Prisma 6.19 (package alias
// `prisma-schema-diff`), so no native engine is downloaded. That engine opens a connection
// through the driver adapter even for a datamodel-to-datamodel diff, so a reachable Postgres
// is needed: DATABASE_URL (nothing is written to it).
const { spawnSync, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const schemaPath = path.join(root, 'prisma', 'schema.prisma');

// Prisma 6 wants a url in the datasource and a query-compiler generator to stay offline.
function toDiffable(schema) {
  return schema
    .replace(
      /datasource db \{[^}]*\}/,
      'datasource db {\n  provider = "postgresql"\n  url = "postgresql://localhost/unused"\n}',
    )
    .replace(
      /generator client \{[^}]*\}/,
      'generator client {\n  provider = "prisma-client-js"\n  engineType = "client"\n  previewFeatures = ["queryCompiler", "driverAdapters"]\n}',
    );
}

function diffConfig(databaseUrl) {
  return [
    `import { PrismaPg } from ${JSON.stringify(require.resolve('@prisma/adapter-pg'))};`,
    'export default {',
    "  engine: 'js',",
    '  experimental: { adapter: true },',
    `  adapter: async () => new PrismaPg({ connectionString: ${JSON.stringify(databaseUrl)} }),`,
    '};',
    '',
  ].join('\n');
}

function schemaSql({ fromSchema, toSchema, databaseUrl = process.env.DATABASE_URL }) {
  if (!databaseUrl) throw new Error('DATABASE_URL must name a reachable Postgres (nothing is written to it)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schema-sql-'));
  try {
    fs.writeFileSync(path.join(dir, 'prisma.config.ts'), diffConfig(databaseUrl));
    const to = path.join(dir, 'to.prisma');
    fs.writeFileSync(to, toDiffable(toSchema));
    const args = ['migrate', 'diff', '--to-schema-datamodel', to, '--script'];
    if (fromSchema === undefined) {
      args.push('--from-empty');
    } else {
      const from = path.join(dir, 'from.prisma');
      fs.writeFileSync(from, toDiffable(fromSchema));
      args.push('--from-schema-datamodel', from);
    }
    const result = spawnSync(
      process.execPath,
      [require.resolve('prisma-schema-diff/build/index.js'), ...args],
      {
        cwd: dir,
        encoding: 'utf8',
        timeout: 120_000,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          CHECKPOINT_DISABLE: '1',
          PRISMA_HIDE_UPDATE_MESSAGE: '1',
          PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
          PRISMA_QUERY_ENGINE_LIBRARY: process.execPath,
        },
      },
    );
    if (result.status !== 0) {
      throw new Error(`prisma migrate diff failed:\n${result.stderr}${result.stdout}`);
    }
    return result.stdout;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { schemaSql };

if (require.main === module) {
  const fromIndex = process.argv.indexOf('--from');
  const toSchema = fs.readFileSync(schemaPath, 'utf8');
  const fromSchema =
    fromIndex === -1
      ? undefined
      : execFileSync('git', ['show', `${process.argv[fromIndex + 1]}:prisma/schema.prisma`], {
          cwd: root,
          encoding: 'utf8',
        });
  process.stdout.write(schemaSql({ fromSchema, toSchema }));
}
