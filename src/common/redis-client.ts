import type Redis from 'ioredis';
import type { RedisOptions } from 'ioredis';

// How long a closing client lets its socket end before dropping it. ioredis's own 2 s also runs for
// a socket a refused connection already closed, and holds a stopping process that long.
const DISCONNECT_TIMEOUT_MS = 100;

/**
 * A Redis client, loaded only when REDIS_URL asks for it: a gateway without Redis need not hold
 * ioredis in its heap. It reconnects by itself; its connection errors show where its commands fail.
 */
export async function openRedis(url: string, options: RedisOptions = {}): Promise<Redis> {
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    disconnectTimeout: DISCONNECT_TIMEOUT_MS,
    ...options,
  });
  redis.on('error', () => undefined);
  return redis;
}

/**
 * Quits, or while Redis is away (where a client without an offline queue refuses QUIT) disconnects:
 * either way the client stops reconnecting and holds nothing that keeps the process up.
 */
export async function closeRedis(redis: Redis | null): Promise<void> {
  await redis?.quit().catch(() => redis.disconnect());
}
