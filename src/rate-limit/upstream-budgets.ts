import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { hash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProblemException } from '../common/problem/problem';
import type { AppConfig } from '../config/app-config';
import { inSpan, SPAN_ATTRIBUTES, spanFailed } from '../tracing/tracing';
import { RateLimitService } from './rate-limit.service';
import {
  budgetRule,
  BudgetRefusal,
  BudgetRefusalReason,
  BudgetRule,
  BudgetUse,
  MemoryBudgetLog,
  RedisBudgetLog,
} from './upstream-budget';

export type BudgetedUpstream = 'pipes' | 'dashboards';

const LIMIT_NAME: Record<BudgetedUpstream, string> = {
  pipes: "the pipes API's rate limit",
  dashboards: "the dashboards API's rate limit",
};

const REASONS: Record<BudgetRefusalReason, (limit: string) => string> = {
  budget: (limit) => `This credential has reached ${limit}`,
  'read-share': (limit) =>
    `Reads have spent their share of this credential's budget under ${limit}; the rest is kept for writes`,
  'caller-share': (limit) =>
    `This caller has spent its share of the reads this credential's budget under ${limit} allows; ` +
    'the rest is kept for other callers',
};

/**
 * Each upstream credential's budget (PIPES_API_RATE_LIMIT, DASHBOARDS_API_RATE_LIMIT) as a window
 * sliding over the calls sent, split so that writes keep UPSTREAM_WRITE_RESERVE of it and each
 * reader is guaranteed UPSTREAM_CALLER_READ_SHARE of what reads may take (upstream-budget.ts).
 * With REDIS_URL the replicas share the windows; while Redis is unreachable each counts its own.
 */
@Injectable()
export class UpstreamBudgets {
  private readonly rules: Record<BudgetedUpstream, BudgetRule | null>;
  private readonly memory = new MemoryBudgetLog();
  private shared: RedisBudgetLog | null = null;

  constructor(
    config: ConfigService<AppConfig, true>,
    private readonly rateLimits: RateLimitService,
  ) {
    const limits = config.get('rateLimits', { infer: true });
    const { writeReserve, callerReadShare } = config.get('upstreamBudget', { infer: true });
    const rule = (limit: AppConfig['rateLimits']['pipesApi']) =>
      limit === null ? null : budgetRule(limit, writeReserve, callerReadShare);
    this.rules = { pipes: rule(limits.pipesApi), dashboards: rule(limits.dashboardsApi) };
  }

  /**
   * Counts one call with `credentialId` for `caller` (the actor, as callerOf writes it); a call
   * that does not fit waits up to `maxWaitMs` for one that does, else is refused with 429 naming
   * whose share is spent, and Retry-After.
   */
  async take(
    upstream: BudgetedUpstream,
    credentialId: string,
    use: BudgetUse,
    caller: string,
    maxWaitMs: number,
  ): Promise<void> {
    const rule = this.rules[upstream];
    if (rule === null) return;
    // The caller is kept as a digest: the windows (in Redis too) hold no person's name.
    const tag = hash('sha256', caller, 'base64url').slice(0, 16);
    const key = `pipes-gateway:budget:${upstream}:${rule.limit}/${rule.windowMs}:${credentialId}`;
    const attributes = { [SPAN_ATTRIBUTES.upstream]: upstream, [SPAN_ATTRIBUTES.budgetUse]: use };
    await inSpan('upstream budget', attributes, async (span) => {
      const started = Date.now();
      for (;;) {
        const refusal = await this.count(key, rule, use, tag);
        span.setAttribute(SPAN_ATTRIBUTES.budgetWaitMs, Date.now() - started);
        if (refusal === null) return;
        if (Date.now() - started + refusal.retryAfterMs > maxWaitMs) {
          spanFailed(span, `refused: ${refusal.reason}`);
          throw refused(upstream, refusal);
        }
        await sleep(refusal.retryAfterMs + 5);
      }
    });
  }

  private async count(
    key: string,
    rule: BudgetRule,
    use: BudgetUse,
    tag: string,
  ): Promise<BudgetRefusal | null> {
    const redis = this.rateLimits.readyRedis();
    if (redis === null) return this.memory.take(key, rule, use, tag);
    this.shared ??= new RedisBudgetLog(redis);
    try {
      return await this.shared.take(key, rule, use, tag);
    } catch {
      // As the callers' limits do: a failing Redis shows as counting in this process.
      return this.memory.take(key, rule, use, tag);
    }
  }
}

function refused(upstream: BudgetedUpstream, refusal: BudgetRefusal): ProblemException {
  const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
  return new ProblemException({
    status: 429,
    type: 'rate-limited',
    title: 'Too many requests',
    detail: `${REASONS[refusal.reason](LIMIT_NAME[upstream])}; retry after ${seconds} s.`,
    headers: { 'retry-after': String(seconds) },
  });
}
