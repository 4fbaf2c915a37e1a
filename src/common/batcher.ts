/** An item that waited longer than it may for its batch to start; it never ran. */
export class WaitTimeoutError extends Error {
  constructor(readonly waitedMs: number) {
    super(`no batch started within ${waitedMs} ms`);
    this.name = 'WaitTimeoutError';
  }
}

export interface KeyedBatcherOptions<Key, Item, Result> {
  /** Batches of one key running at a time. */
  inFlightPerKey: number;
  /** Most items in one batch. */
  maxBatch: number;
  /** How long an item may wait for its batch to start before it fails with WaitTimeoutError. */
  maxWaitMs: number;
  /** Does the work of `items`, all under `key`, and answers with one result per item, in order. */
  run: (key: Key, items: Item[]) => Promise<Result[]>;
  /**
   * Whether to run each item of a batch that failed with `error` again alone: when the failure may
   * be one item's, the others still succeed and each item gets its own error.
   */
  retryAlone: (error: unknown) => boolean;
}

interface Waiter<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
  timer?: NodeJS.Timeout;
}

interface KeyState<Item, Result> {
  inFlight: number;
  waiting: Waiter<Item, Result>[];
}

/**
 * Runs items in batches per key, at most `inFlightPerKey` batches of a key at a time. An item
 * arriving at a free slot starts at once, alone; items arriving while every slot is taken wait and
 * go together in the next batch, so a busy key gets bigger batches rather than a longer queue.
 */
export class KeyedBatcher<Key, Item, Result> {
  private readonly keys = new Map<Key, KeyState<Item, Result>>();

  constructor(private readonly options: KeyedBatcherOptions<Key, Item, Result>) {}

  submit(key: Key, item: Item): Promise<Result> {
    let state = this.keys.get(key);
    if (!state) {
      state = { inFlight: 0, waiting: [] };
      this.keys.set(key, state);
    }
    const keyState = state;
    return new Promise<Result>((resolve, reject) => {
      const waiter: Waiter<Item, Result> = { item, resolve, reject };
      keyState.waiting.push(waiter);
      this.startBatches(key, keyState);
      // Batches take from the front: still last means still waiting.
      if (keyState.waiting.at(-1) === waiter) {
        waiter.timer = setTimeout(() => {
          keyState.waiting.splice(keyState.waiting.indexOf(waiter), 1);
          this.forgetIfIdle(key, keyState);
          reject(new WaitTimeoutError(this.options.maxWaitMs));
        }, this.options.maxWaitMs).unref();
      }
    });
  }

  /** Keys with batches running or items waiting. */
  get size(): number {
    return this.keys.size;
  }

  /** Items waiting for a batch, over all keys. */
  get queued(): number {
    let queued = 0;
    for (const state of this.keys.values()) queued += state.waiting.length;
    return queued;
  }

  private startBatches(key: Key, state: KeyState<Item, Result>): void {
    while (state.inFlight < this.options.inFlightPerKey && state.waiting.length > 0) {
      const batch = state.waiting.splice(0, this.options.maxBatch);
      for (const waiter of batch) clearTimeout(waiter.timer);
      state.inFlight += 1;
      void this.runBatch(key, batch).finally(() => {
        state.inFlight -= 1;
        this.startBatches(key, state);
        this.forgetIfIdle(key, state);
      });
    }
  }

  private async runBatch(key: Key, batch: Waiter<Item, Result>[]): Promise<void> {
    try {
      const results = await this.options.run(
        key,
        batch.map((waiter) => waiter.item),
      );
      batch.forEach((waiter, index) => waiter.resolve(results[index]));
    } catch (error) {
      if (batch.length === 1 || !this.options.retryAlone(error)) {
        for (const waiter of batch) waiter.reject(error);
        return;
      }
      for (const waiter of batch) {
        try {
          const [result] = await this.options.run(key, [waiter.item]);
          waiter.resolve(result);
        } catch (itemError) {
          waiter.reject(itemError);
        }
      }
    }
  }

  private forgetIfIdle(key: Key, state: KeyState<Item, Result>): void {
    if (state.inFlight === 0 && state.waiting.length === 0) this.keys.delete(key);
  }
}
