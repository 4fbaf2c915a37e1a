import Redis from 'ioredis';
import type { RateLimit } from '../config/app-config';
import type { RateLimitDecision, RateLimitStore } from './rate-limit.store';

// INCR and set the expiry on the first hit, atomically, so replicas share one window per key.
const CONSUME = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { count, ttl }`;

/** Counters in Redis (REDIS_URL), so every replica counts against the same limits. */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false });
    // Connection errors surface on the calls that need Redis; the client reconnects by itself.
    this.redis.on('error', () => undefined);
  }

  async consume(key: string, rule: RateLimit): Promise<RateLimitDecision> {
    const [count, ttl] = (await this.redis.eval(CONSUME, 1, redisKey(key, rule), rule.windowMs)) as [
      number,
      number,
    ];
    return { allowed: count <= rule.limit, remaining: Math.max(0, rule.limit - count), resetMs: ttl };
  }

  async peek(key: string, rule: RateLimit): Promise<RateLimitDecision> {
    const [count, ttl] = await Promise.all([
      this.redis.get(redisKey(key, rule)),
      this.redis.pttl(redisKey(key, rule)),
    ]);
    const used = Number(count ?? 0);
    return {
      allowed: used + 1 <= rule.limit,
      remaining: Math.max(0, rule.limit - used),
      resetMs: ttl > 0 ? ttl : rule.windowMs,
    };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

// The rule is part of the key so changing a limit starts fresh windows instead of mixing two.
function redisKey(key: string, rule: RateLimit): string {
  return `pipes-gateway:rl:${rule.limit}/${rule.windowMs}:${key}`;
}
