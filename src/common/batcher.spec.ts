import { KeyedBatcher, KeyedBatcherOptions, WaitTimeoutError } from './batcher';

/** A batch that runs until its test ends it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A batcher whose batches are recorded and wait for `gates[n]` (n-th batch), if there is one. */
function recordingBatcher(
  options: Partial<KeyedBatcherOptions<string, number, string>> = {},
  gates: ReturnType<typeof gate>[] = [],
) {
  const batches: { key: string; items: number[] }[] = [];
  const batcher = new KeyedBatcher<string, number, string>({
    inFlightPerKey: 2,
    maxBatch: 3,
    maxWaitMs: 1_000,
    retryAlone: () => true,
    run: async (key, items) => {
      const gateOfBatch = gates[batches.length];
      batches.push({ key, items });
      await gateOfBatch?.opened;
      return items.map((item) => `${key}${item}`);
    },
    ...options,
  });
  return { batcher, batches };
}

describe('KeyedBatcher', () => {
  it('starts an item alone at a free slot and sends the items that wait meanwhile together', async () => {
    const gates = [gate(), gate(), gate()];
    const { batcher, batches } = recordingBatcher({}, gates);
    const results = [1, 2, 3, 4, 5, 6].map((item) => batcher.submit('a', item));
    await tick();
    expect(batches.map((batch) => batch.items)).toEqual([[1], [2]]);
    expect(batcher.queued).toBe(4);
    gates[1].open();
    await tick();
    // At most maxBatch per batch; the one left over waits for the next free slot.
    expect(batches.map((batch) => batch.items)).toEqual([[1], [2], [3, 4, 5]]);
    expect(batcher.queued).toBe(1);
    gates[0].open();
    gates[2].open();
    expect(await Promise.all(results)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
    expect(batches.map((batch) => batch.items)).toEqual([[1], [2], [3, 4, 5], [6]]);
    expect(batcher.size).toBe(0);
  });

  it('batches each key on its own', async () => {
    const gates = [gate()];
    const { batcher, batches } = recordingBatcher({ inFlightPerKey: 1 }, gates);
    const results = [batcher.submit('a', 1), batcher.submit('a', 2), batcher.submit('b', 1)];
    await tick();
    expect(batches).toEqual([
      { key: 'a', items: [1] },
      { key: 'b', items: [1] },
    ]);
    gates[0].open();
    expect(await Promise.all(results)).toEqual(['a1', 'a2', 'b1']);
  });

  it('runs the items of a failed batch again alone, so only the failing one fails', async () => {
    const gates = [gate()];
    const runs: number[][] = [];
    const { batcher } = recordingBatcher(
      {
        inFlightPerKey: 1,
        run: async (_key, items) => {
          runs.push(items);
          if (runs.length === 1) await gates[0].opened;
          if (items.includes(3)) throw new Error('item 3 is bad');
          return items.map(String);
        },
      },
      gates,
    );
    const results = Promise.allSettled([1, 2, 3, 4].map((item) => batcher.submit('a', item)));
    await tick();
    gates[0].open();
    expect(
      (await results).map((result) => (result.status === 'fulfilled' ? result.value : result.reason.message)),
    ).toEqual(['1', '2', 'item 3 is bad', '4']);
    expect(runs).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('fails the whole batch at once when the failure is not one of its items', async () => {
    const gates = [gate()];
    const runs: number[][] = [];
    const { batcher } = recordingBatcher(
      {
        inFlightPerKey: 1,
        retryAlone: () => false,
        run: async (_key, items) => {
          runs.push(items);
          if (runs.length === 1) await gates[0].opened;
          throw new Error('database gone');
        },
      },
      gates,
    );
    const results = Promise.allSettled([1, 2, 3].map((item) => batcher.submit('a', item)));
    await tick();
    gates[0].open();
    expect((await results).map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(runs).toEqual([[1], [2, 3]]);
    expect(batcher.size).toBe(0);
  });

  it('gives up on an item that waits too long, without running it', async () => {
    jest.useFakeTimers();
    try {
      const gates = [gate()];
      const { batcher, batches } = recordingBatcher({ inFlightPerKey: 1, maxWaitMs: 50 }, gates);
      const first = batcher.submit('a', 1);
      const late = batcher.submit('a', 2);
      jest.advanceTimersByTime(50);
      await expect(late).rejects.toThrow(WaitTimeoutError);
      expect(batcher.queued).toBe(0);
      const next = batcher.submit('a', 3);
      gates[0].open();
      await expect(first).resolves.toBe('a1');
      await expect(next).resolves.toBe('a3');
      expect(batches.map((batch) => batch.items)).toEqual([[1], [3]]);
      expect(batcher.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
