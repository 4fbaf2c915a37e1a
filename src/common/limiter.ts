/** A call that waited longer than it may for its turn; it never ran. */
export class WaitTimeoutError extends Error {
  constructor(readonly waitedMs: number) {
    super(`no turn within ${waitedMs} ms`);
    this.name = 'WaitTimeoutError';
  }
}

/** At most `limit` calls of run() at a time; the rest wait in call order. */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Rejects with WaitTimeoutError, without running `work`, when no turn comes within `maxWaitMs`. */
  async run<T>(work: () => Promise<T>, maxWaitMs = Infinity): Promise<T> {
    // Taken or queued before the first await: KeyedLimiter relies on it to know when it may forget a key.
    if (this.active >= this.limit) await this.turn(maxWaitMs);
    else this.active += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so a newcomer cannot take it first.
      if (next) next();
      else this.active -= 1;
    }
  }

  get idle(): boolean {
    return this.active === 0;
  }

  /** Calls waiting for a turn. */
  get queued(): number {
    return this.waiting.length;
  }

  private turn(maxWaitMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = Number.isFinite(maxWaitMs)
        ? setTimeout(() => {
            this.waiting.splice(this.waiting.indexOf(start), 1);
            reject(new WaitTimeoutError(maxWaitMs));
          }, maxWaitMs).unref()
        : undefined;
      const start = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.waiting.push(start);
    });
  }
}

/** A Limiter per key, kept only while the key has calls running or waiting. */
export class KeyedLimiter<Key> {
  private readonly limiters = new Map<Key, Limiter>();

  constructor(private readonly limitPerKey: number) {}

  async run<T>(key: Key, work: () => Promise<T>, maxWaitMs = Infinity): Promise<T> {
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = new Limiter(this.limitPerKey);
      this.limiters.set(key, limiter);
    }
    try {
      return await limiter.run(work, maxWaitMs);
    } finally {
      if (limiter.idle) this.limiters.delete(key);
    }
  }

  /** Keys with calls running or waiting. */
  get size(): number {
    return this.limiters.size;
  }

  /** Calls waiting for a turn, over all keys. */
  get queued(): number {
    let queued = 0;
    for (const limiter of this.limiters.values()) queued += limiter.queued;
    return queued;
  }
}
