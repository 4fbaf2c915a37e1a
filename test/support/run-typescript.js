#!/usr/bin/env node
// Runs one of the project's TypeScript entry points in a process of its own, compiled on load
// (typescript-hook.js), so tests can start a second gateway or a CLI command as separate processes
// without a build: node test/support/run-typescript.js src/cli/main.ts key create ...
const { resolve } = require('node:path');
const workerThreads = require('node:worker_threads');

const TYPESCRIPT_HOOK = require.resolve('./typescript-hook');
require(TYPESCRIPT_HOOK);

// A worker thread starts without this process's hooks: it is given the same one to load its source.
const { Worker } = workerThreads;
workerThreads.Worker = class extends Worker {
  constructor(filename, options = {}) {
    super(filename, {
      ...options,
      execArgv: [...(options.execArgv ?? process.execArgv), '--require', TYPESCRIPT_HOOK],
    });
  }
};

const [entry, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], resolve(entry), ...args];
require('reflect-metadata');
require(resolve(entry));
