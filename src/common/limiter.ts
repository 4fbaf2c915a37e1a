import { WaitTimeoutError } from './batcher';

/**
 * At most `limit` calls of run() at a time; the rest wait in call order. With `maxWaitMs`, a call
 * that waited that long without starting fails with WaitTimeoutError, never having run.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly maxWaitMs: number | null = null,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    // Taken or queued before the first await: KeyedLimiter relies on it to know when it may forget a key.
    if (this.active >= this.limit) await this.wait();
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
    return this.active === 0 && this.waiting.length === 0;
  }

  private wait(): Promise<void> {
    const { maxWaitMs } = this;
    return new Promise<void>((resolve, reject) => {
      if (maxWaitMs === null) {
        this.waiting.push(resolve);
        return;
      }
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(start), 1);
        reject(new WaitTimeoutError(maxWaitMs));
      }, maxWaitMs);
      const start = () => {
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

  constructor(
    private readonly limitPerKey: number,
    private readonly maxWaitMs: number | null = null,
  ) {}

  async run<T>(key: Key, work: () => Promise<T>): Promise<T> {
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = new Limiter(this.limitPerKey, this.maxWaitMs);
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
