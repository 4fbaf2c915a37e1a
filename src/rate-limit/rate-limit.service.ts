import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigService } from '@nestjs/config';
import type Redis from 'ioredis';
import { closeRedis, openRedis } from '../common/redis-client';
import {
  RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { AppConfig, RateLimit } from '../config/app-config';
import { ProblemException } from '../common/problem/problem';

// How long a start waits for Redis before counting in memory meanwhile.
const REDIS_START_WAIT_MS = 2_000;

/** The limits on the gateway's callers; the upstream budgets are counted by UpstreamBudgets. */
export type LimitName = Exclude<keyof AppConfig['rateLimits'], 'pipesApi' | 'dashboardsApi'>;

const DESCRIPTIONS: Record<LimitName, string> = {
  perKey: 'This gateway key has made too many calls',
  perTenant: "This tenant's keys have made too many calls together",
  failedAuth: 'Too many failed authentications',
  valueEchoes:
    'Answers to this caller were scrubbed of vault secret values its own requests carried outside secret ' +
    'places too often (guessing a secret through redaction); requests that send values upstream are refused',
};

/**
 * The gateway's rate limits (docs/operations.md, "Limits"): fixed windows counted by rate-limiter-flexible, in
 * memory or, with REDIS_URL, in Redis so that every replica counts against the same limits. While
 * Redis is unreachable each replica counts on its own in memory rather than failing calls.
 */
@Injectable()
export class RateLimitService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RateLimitService.name);
  private redis: Redis | null = null;
  private readonly limiters = new Map<LimitName, RateLimiterAbstract>();

  constructor(private readonly config: ConfigService<AppConfig, true>) {}

  /**
   * Builds the limiters; with REDIS_URL, waits briefly for Redis, so the first calls after a start
   * count in the shared store.
   */
  async onModuleInit(): Promise<void> {
    const redisUrl = this.config.get('redisUrl', { infer: true });
    // Calls made while the connection comes up wait for it; while Redis is away, limits count in memory.
    const redis = redisUrl ? await openRedis(redisUrl, { enableOfflineQueue: true }) : null;
    this.redis = redis;
    const rules = this.config.get('rateLimits', { infer: true });
    for (const name of Object.keys(DESCRIPTIONS) as LimitName[]) {
      const rule = rules[name];
      if (rule) this.limiters.set(name, limiter(name, rule, redis));
    }
    if (!redis || redis.status === 'ready') return;
    const ready = await Promise.race([
      new Promise<boolean>((resolve) => redis.once('ready', () => resolve(true))),
      sleep(REDIS_START_WAIT_MS, false, { ref: false }),
    ]);
    if (!ready) this.logger.warn('Redis is not reachable yet: rate limits count in this process until it is');
  }

  async onModuleDestroy(): Promise<void> {
    await closeRedis(this.redis);
  }

  /** The Redis the limits are counted in, while it is connected; null without REDIS_URL or while it is away. */
  readyRedis(): Redis | null {
    return this.redis?.status === 'ready' ? this.redis : null;
  }

  /** Counts a call; throws 429 with Retry-After when over the limit. No-op when the limit is off. */
  async consume(name: LimitName, key: string): Promise<void> {
    const refused = await this.take(name, key);
    if (refused) throw tooManyRequests(DESCRIPTIONS[name], refused);
  }

  /**
   * Counts a failed authentication against the client's address and, when the caller named one,
   * the credential it tried (a key's public prefix). Throws 429 once either is over
   * RATE_LIMIT_FAILED_AUTH; the caller answers 401 otherwise. Only failures are counted, so a
   * caller whose credential verifies is never refused by this limit.
   */
  async failedAuthentication(address: string, credential: string | null): Promise<void> {
    const [byAddress, byCredential] = await Promise.all([
      this.take('failedAuth', `address:${address}`),
      credential === null ? null : this.take('failedAuth', `credential:${credential}`),
    ]);
    if (byAddress) throw tooManyRequests(`${DESCRIPTIONS.failedAuth} from this address`, byAddress);
    if (byCredential) throw tooManyRequests(`${DESCRIPTIONS.failedAuth} with this credential`, byCredential);
  }

  /** Counts one event against `key` without refusing anything: `refuseWhenSpent` acts on the count. */
  async count(name: LimitName, key: string): Promise<void> {
    await this.take(name, key);
  }

  /** Throws 429 with Retry-After while `key` has used up its limit in this window; counts nothing. */
  async refuseWhenSpent(name: LimitName, key: string): Promise<void> {
    const limiter = this.limiters.get(name);
    const counted = await limiter?.get(key);
    if (limiter && counted && counted.consumedPoints >= limiter.points) {
      throw tooManyRequests(DESCRIPTIONS[name], counted);
    }
  }

  /** Counts one call against `key`: null when it is within the limit, else the refusal. */
  private async take(name: LimitName, key: string): Promise<RateLimiterRes | null> {
    const limiter = this.limiters.get(name);
    if (!limiter) return null;
    try {
      await limiter.consume(key);
      return null;
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return refusal;
      throw refusal;
    }
  }
}

function limiter(name: LimitName, rule: RateLimit, redis: Redis | null): RateLimiterAbstract {
  const options = {
    points: rule.limit,
    duration: rule.windowMs / 1000,
    // The rule is part of the key so changing a limit starts fresh windows instead of mixing two.
    keyPrefix: `pipes-gateway:rl:${name}:${rule.limit}/${rule.windowMs}`,
  };
  if (!redis) return new RateLimiterMemory(options);
  return new RateLimiterRedis({
    ...options,
    storeClient: redis,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
    // A key over its limit is refused from memory until its window ends: no Redis call per refusal.
    inMemoryBlockOnConsumed: rule.limit + 1,
  });
}

function tooManyRequests(description: string, refusal: RateLimiterRes): ProblemException {
  const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
  return new ProblemException({
    status: 429,
    type: 'rate-limited',
    title: 'Too many requests',
    detail: `${description}; retry after ${seconds} s.`,
    headers: { 'retry-after': String(seconds) },
  });
}
