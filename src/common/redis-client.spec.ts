import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

// A process of its own opens a client to a port nothing listens on, closes it once it retries, and
// reports when it did: the process must end at once after, not when some timer left behind fires.
const SCRIPT = `
const { closeRedis, openRedis } = require('./src/common/redis-client.ts');
(async () => {
  const redis = await openRedis('redis://127.0.0.1:1', { enableOfflineQueue: process.argv[1] === 'queue' });
  await new Promise((resolve) => redis.once('reconnecting', resolve));
  await closeRedis(redis);
  process.stdout.write(String(Date.now()));
})();
`;

async function msFromCloseToExit(queue: boolean): Promise<number> {
  const child = spawn(
    process.execPath,
    ['--require', join(ROOT, 'test/support/typescript-hook.js'), '-e', SCRIPT, queue ? 'queue' : 'no-queue'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let closedAt = '';
  child.stdout.on('data', (chunk: Buffer) => (closedAt += chunk.toString()));
  await once(child, 'exit');
  return Date.now() - Number(closedAt);
}

describe('closeRedis', () => {
  it.each([
    ['with an offline queue', true],
    ['without an offline queue', false],
  ])(
    'lets the process end at once after closing a client %s that never reached Redis',
    async (_name, queue) => {
      expect(await msFromCloseToExit(queue)).toBeLessThan(1000);
    },
  );
});
