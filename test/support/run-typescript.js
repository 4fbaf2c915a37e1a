#!/usr/bin/env node
// Runs one of the project's TypeScript entry points in a process of its own, compiled on load with
// the settings the tests use (.swcrc), so tests can start a second gateway or a CLI command as
// separate processes without a build: node test/support/run-typescript.js src/cli/main.ts key create ...
const { resolve } = require('node:path');
const { transformFileSync } = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  module._compile(transformFileSync(filename, { sourceMaps: 'inline' }).code, filename);
};

const [entry, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], resolve(entry), ...args];
require('reflect-metadata');
require(resolve(entry));
