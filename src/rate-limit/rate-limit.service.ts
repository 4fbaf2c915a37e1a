import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig, RateLimit } from '../config/app-config';
import { ProblemException } from '../common/problem/problem';
import { MemoryRateLimitStore, RateLimitDecision, RateLimitStore } from './rate-limit.store';
import { RedisRateLimitStore } from './redis-rate-limit.store';

export type LimitName = keyof AppConfig['rateLimits'];

const DESCRIPTIONS: Record<LimitName, string> = {
  perKey: 'This gateway key has made too many calls',
  perTenant: "This tenant's keys have made too many calls together",
  failedAuth: 'Too many failed authentications from this address',
  pipesApi: "This credential has reached the pipes API's rate limit",
  dashboardsApi: "This credential has reached the dashboards API's rate limit",
};

/** The gateway's rate limits (DESIGN section 7), counted in memory or, with REDIS_URL, in Redis. */
@Injectable()
export class RateLimitService implements OnModuleDestroy {
  private readonly store: RateLimitStore;
  private readonly rules: AppConfig['rateLimits'];

  constructor(config: ConfigService<AppConfig, true>) {
    const redisUrl = config.get('redisUrl', { infer: true });
    this.store = redisUrl ? new RedisRateLimitStore(redisUrl) : new MemoryRateLimitStore();
    this.rules = config.get('rateLimits', { infer: true });
  }

  onModuleDestroy(): Promise<void> {
    return this.store.close();
  }

  /** Counts a call; throws 429 with Retry-After when over the limit. No-op when the limit is off. */
  async consume(name: LimitName, key: string): Promise<void> {
    const rule = this.rules[name];
    if (!rule) return;
    const decision = await this.store.consume(`${name}:${key}`, rule);
    if (!decision.allowed) throw tooManyRequests(name, decision);
  }

  /** Throws 429 when the next call would be over the limit, without counting one. */
  async check(name: LimitName, key: string): Promise<void> {
    const rule = this.rules[name];
    if (!rule) return;
    const decision = await this.store.peek(`${name}:${key}`, rule);
    if (!decision.allowed) throw tooManyRequests(name, decision);
  }

  /**
   * For upstream budgets: counts a call, and when the window is nearly over waits for it (up to
   * `maxWaitMs`) instead of refusing, so a short burst is queued rather than shed.
   */
  async consumeOrWait(name: LimitName, key: string, maxWaitMs: number): Promise<void> {
    const rule: RateLimit | null = this.rules[name];
    if (!rule) return;
    const decision = await this.store.consume(`${name}:${key}`, rule);
    if (decision.allowed) return;
    if (decision.resetMs > maxWaitMs) throw tooManyRequests(name, decision);
    await new Promise((resolve) => setTimeout(resolve, decision.resetMs + 5));
    const retry = await this.store.consume(`${name}:${key}`, rule);
    if (!retry.allowed) throw tooManyRequests(name, retry);
  }
}

function tooManyRequests(name: LimitName, decision: RateLimitDecision): ProblemException {
  const seconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
  return new ProblemException({
    status: 429,
    type: 'rate-limited',
    title: 'Too many requests',
    detail: `${DESCRIPTIONS[name]}; retry after ${seconds} s.`,
    headers: { 'retry-after': String(seconds) },
  });
}
