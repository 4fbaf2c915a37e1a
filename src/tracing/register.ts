/**
 * Imported first by the gateway's entry points, so that the SDK, when tracing is on, instruments
 * Fastify, undici, pg and ioredis before anything loads them.
 */
import { isMainThread } from 'node:worker_threads';
import { startFailureLine } from '../start-failure';
import { startTracing } from './start-tracing';

// Preloaded (`--require`), this file runs again in every worker thread, whose work is not traced:
// the span export worker would start an SDK of its own.
if (isMainThread) {
  try {
    startTracing(process.env);
  } catch (error) {
    console.error(startFailureLine('pipes-gateway', error));
    process.exit(1);
  }
}
