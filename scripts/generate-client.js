#!/usr/bin/env node
// `npm run client:generate`: starts the built gateway on an in-memory database and a loopback port,
// reads the OpenAPI document it serves, and writes clients/openapi.json and the typed client's
// clients/typescript/src/schema.d.ts. Needs no network beyond loopback.
/* global fetch */
require('reflect-metadata');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { clientFiles, ROOT } = require('./client-files');

async function servedDocument() {
  const { createApp, closeGracefully } = require('../dist/src/bootstrap');
  const { loadConfig } = require('../dist/src/config/app-config');
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory://', PORT: '0', HOST: '127.0.0.1' });
  const app = await createApp(config, { quiet: true, logDestination: { write: () => true } });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.getHttpServer().address();
    const response = await fetch(`http://127.0.0.1:${port}/docs-json`);
    if (!response.ok) throw new Error(`/docs-json answered ${response.status}`);
    return await response.json();
  } finally {
    await closeGracefully(app);
  }
}

async function main() {
  const files = await clientFiles(await servedDocument());
  for (const [path, text] of Object.entries(files)) {
    writeFileSync(join(ROOT, path), text);
    console.log(`wrote ${path}`);
  }
}

main().catch((error) => {
  console.error(`client:generate: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
