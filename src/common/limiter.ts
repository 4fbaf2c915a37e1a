/** At most `limit` calls of run() at a time; the rest wait in call order. */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    // Taken or queued before the first await: KeyedLimiter relies on it to know when it may forget a key.
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
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
}

/** A Limiter per key, kept only while the key has calls running or waiting. */
export class KeyedLimiter<Key> {
  private readonly limiters = new Map<Key, Limiter>();

  constructor(private readonly limitPerKey: number) {}

  async run<T>(key: Key, work: () => Promise<T>): Promise<T> {
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = new Limiter(this.limitPerKey);
      this.limiters.set(key, limiter);
    }
    try {
      return await limiter.run(work);
    } finally {
      if (limiter.idle) this.limiters.delete(key);
    }
  }

  /** Keys with calls running or waiting. */
  get size(): number {
    return this.limiters.size;
  }
}
