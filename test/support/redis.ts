import { spawnSync } from 'node:child_process';
import { postgresConfigured, skippedName } from './skip';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether Redis accepts connections at TEST_REDIS_URL. Asked once, synchronously, while the test
 * file is read, so a test that needs Redis is skipped by name, never passed without asserting.
 */
export const redisReachable: boolean = (() => {
  const { hostname, port } = new URL(TEST_REDIS_URL);
  const probe = `const socket = require('node:net').connect(${Number(port || 6379)}, ${JSON.stringify(hostname)});
socket.on('connect', () => process.exit(0)); socket.on('error', () => process.exit(1));
setTimeout(() => process.exit(1), 1000);`;
  return spawnSync(process.execPath, ['-e', probe], { timeout: 5000 }).status === 0;
})();

/** `it`, or `it.skip` with the reason in its name when Redis is not reachable. */
export function itWithRedis(name: string, test: () => Promise<void>, timeout?: number): void {
  if (redisReachable) it(name, test, timeout);
  else
    it.skip(
      skippedName(name, `Redis not reachable at ${TEST_REDIS_URL}; start it or set TEST_REDIS_URL`),
      test,
    );
}

/**
 * `it` for replicas that share Redis and one database (each embedded one is its process's alone, so
 * a replica would not know what another stored): skipped by name unless both are there.
 */
export function itWithRedisAndPostgres(name: string, test: () => Promise<void>, timeout?: number): void {
  if (!postgresConfigured())
    it.skip(
      skippedName(name, 'DATABASE_URL is unset, so two replicas share no database; set it to run this'),
      test,
    );
  else itWithRedis(name, test, timeout);
}
