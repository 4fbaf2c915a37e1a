export interface RateLimit {
  /** Calls allowed per window and key. */
  limit: number;
  windowMs: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Calls left in the current window after this one. */
  remaining: number;
  /** Whole seconds until the window ends (at least 1), as both upstreams report it. */
  resetSeconds: number;
}

// Past this many tracked keys, expired windows are dropped, so a stream of invented tokens cannot grow memory.
const PRUNE_ABOVE_KEYS = 10_000;

/**
 * A fixed window per key that starts at the key's first call, like the in-memory store of the
 * rate limiter the dashboards server uses; the pipes service documents only "N per window per key".
 */
export class FixedWindowRateLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    readonly rule: RateLimit,
    private readonly now: () => number,
  ) {}

  hit(key: string): RateLimitDecision {
    const now = this.now();
    let window = this.windows.get(key);
    if (window === undefined || now - window.startedAt >= this.rule.windowMs) {
      if (this.windows.size >= PRUNE_ABOVE_KEYS) this.pruneExpired(now);
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    const resetMs = window.startedAt + this.rule.windowMs - now;
    return {
      allowed: window.count <= this.rule.limit,
      limit: this.rule.limit,
      remaining: Math.max(0, this.rule.limit - window.count),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  }

  reset(): void {
    this.windows.clear();
  }

  private pruneExpired(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.startedAt >= this.rule.windowMs) this.windows.delete(key);
    }
  }
}
