/**
 * Imported first by the gateway's entry points, so that the SDK, when tracing is on, instruments
 * http, undici, pg and ioredis before anything loads them.
 */
import { startFailureLine } from '../start-failure';
import { startTracing } from './start-tracing';

try {
  startTracing(process.env);
} catch (error) {
  console.error(startFailureLine('pipes-gateway', error));
  process.exit(1);
}
