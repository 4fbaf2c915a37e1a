import type { RateLimit } from '../config/app-config';

export interface RateLimitDecision {
  allowed: boolean;
  /** Calls left in the current window after this one. */
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** Fixed-window counters, shared by every rate limit of the gateway. */
export interface RateLimitStore {
  /** Counts one call against `key` and says whether it is within `rule`. */
  consume(key: string, rule: RateLimit): Promise<RateLimitDecision>;
  /** The decision the next call would get, without counting one. */
  peek(key: string, rule: RateLimit): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

interface Window {
  count: number;
  resetAt: number;
}

/** One replica's counters; several replicas share counters through RedisRateLimitStore. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, Window>();
  private lastSweep = Date.now();

  consume(key: string, rule: RateLimit): Promise<RateLimitDecision> {
    const window = this.window(key, rule);
    window.count += 1;
    return Promise.resolve(decide(window.count, window.resetAt, rule));
  }

  peek(key: string, rule: RateLimit): Promise<RateLimitDecision> {
    const window = this.windows.get(key);
    const now = Date.now();
    if (!window || window.resetAt <= now)
      return Promise.resolve({ allowed: true, remaining: rule.limit, resetMs: rule.windowMs });
    return Promise.resolve(decide(window.count + 1, window.resetAt, rule));
  }

  close(): Promise<void> {
    this.windows.clear();
    return Promise.resolve();
  }

  private window(key: string, rule: RateLimit): Window {
    const now = Date.now();
    if (now - this.lastSweep > 60_000) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + rule.windowMs };
      this.windows.set(key, window);
    }
    return window;
  }

  // Expired windows are dropped now and then, so keys seen once do not pile up.
  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

export function decide(count: number, resetAt: number, rule: RateLimit): RateLimitDecision {
  return {
    allowed: count <= rule.limit,
    remaining: Math.max(0, rule.limit - count),
    resetMs: Math.max(0, resetAt - Date.now()),
  };
}
