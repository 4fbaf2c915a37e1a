import { RefreshingCache } from './refreshing-cache';

/** A load the test settles by hand, counting how often it was started. */
function manualLoads<V>() {
  const pending: { resolve: (value: V | undefined) => void; reject: (error: Error) => void }[] = [];
  const load = jest.fn(
    () =>
      new Promise<V | undefined>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
  );
  return { load, pending };
}

/** A cache (2 s) holding `value` under 'k', loaded now; its load function and the loads started. */
async function cacheHolding(value: string) {
  const cache = new RefreshingCache<string>(2_000);
  const loads = manualLoads<string>();
  const first = cache.get('k', loads.load);
  loads.pending[0].resolve(value);
  await first;
  return { cache, ...loads };
}

/** Lets a background load's outcome reach the cache (the load's promise, then the cache's handler). */
async function backgroundLoadSettled(): Promise<void> {
  await Promise.resolve();
  await Promise.resolve();
}

describe('RefreshingCache', () => {
  let now: number;

  beforeEach(() => {
    now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });

  afterEach(() => jest.restoreAllMocks());

  it('shares one load between every request that misses while it runs', async () => {
    const cache = new RefreshingCache<string>(2_000);
    const { load, pending } = manualLoads<string>();

    const answers = Array.from({ length: 50 }, async () => cache.get('k', load));
    pending[0].resolve('row');

    expect(await Promise.all(answers)).toEqual(Array(50).fill('row'));
    expect(load).toHaveBeenCalledTimes(1);
    expect(cache.get('k', load)).toBe('row');
  });

  it('serves a value in the first half of its life without loading', async () => {
    const { cache, load } = await cacheHolding('row');

    now += 999;
    expect(cache.get('k', load)).toBe('row');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('renews a value past half its life in the background, once, serving it meanwhile', async () => {
    const { cache, load, pending } = await cacheHolding('old');

    now += 1_500;
    expect(cache.get('k', load)).toBe('old');
    expect(cache.get('k', load)).toBe('old');
    expect(load).toHaveBeenCalledTimes(2);

    pending[1].resolve('new');
    await backgroundLoadSettled();
    // The renewed value's life counts from when its load began.
    now += 1_999;
    expect(cache.get('k', load)).toBe('new');
  });

  it('gives a load the value it renews, in the background or once expired, and nothing after a delete', async () => {
    const { cache, load, pending } = await cacheHolding('old');
    expect(load).toHaveBeenLastCalledWith(undefined);

    now += 1_500;
    void cache.get('k', load);
    expect(load).toHaveBeenLastCalledWith('old');
    pending[1].resolve('renewed');
    await backgroundLoadSettled();

    now += 2_000;
    void cache.get('k', load);
    expect(load).toHaveBeenLastCalledWith('renewed');
    pending[2].resolve('current');
    await backgroundLoadSettled();

    cache.delete('k');
    void cache.get('k', load);
    expect(load).toHaveBeenLastCalledWith(undefined);
  });

  it('never serves a value once its time is up, and waits for the load instead', async () => {
    const { cache, load, pending } = await cacheHolding('old');

    now += 2_000;
    const answer = cache.get('k', load);
    expect(answer).toBeInstanceOf(Promise);
    pending[1].resolve('new');
    expect(await answer).toBe('new');
  });

  it('keeps serving the value when a renewal fails, and reports a failed load to its callers', async () => {
    const { cache, load, pending } = await cacheHolding('row');

    now += 1_500;
    expect(cache.get('k', load)).toBe('row');
    pending[1].reject(new Error('database down'));
    await backgroundLoadSettled();
    expect(cache.get('k', load)).toBe('row');

    now += 1_000;
    const answer = cache.get('k', load);
    pending[pending.length - 1].reject(new Error('database down'));
    await expect(answer).rejects.toThrow('database down');
  });

  it('drops a key whose load finds nothing, and keeps nothing for it', async () => {
    const { cache, load, pending } = await cacheHolding('row');

    now += 1_500;
    expect(cache.get('k', load)).toBe('row');
    pending[1].resolve(undefined);
    await backgroundLoadSettled();

    const again = cache.get('k', load);
    expect(again).toBeInstanceOf(Promise);
    pending[2].resolve(undefined);
    expect(await again).toBeUndefined();
  });

  it('does not keep what a load running during a delete answers', async () => {
    const cache = new RefreshingCache<string>(2_000);
    const { load, pending } = manualLoads<string>();
    const before = cache.get('k', load);
    cache.delete('k');
    pending[0].resolve('revoked since');
    expect(await before).toBe('revoked since');

    const after = cache.get('k', load);
    expect(after).toBeInstanceOf(Promise);
    expect(load).toHaveBeenCalledTimes(2);
    pending[1].resolve('current');
    expect(await after).toBe('current');
  });

  it('forgets the keys a predicate picks, entries and running loads alike', async () => {
    const cache = new RefreshingCache<string>(30_000);
    const { load, pending } = manualLoads<string>();
    const a = cache.get('tenant-a:pipes', load);
    const b = cache.get('tenant-b:pipes', load);
    pending[0].resolve('a');
    pending[1].resolve('b');
    await Promise.all([a, b]);
    const running = cache.get('tenant-a:dashboards', load);

    cache.deleteWhere((key) => key.startsWith('tenant-a:'));
    pending[2].resolve('stale');
    await running;

    expect(cache.get('tenant-b:pipes', load)).toBe('b');
    expect(cache.get('tenant-a:pipes', load)).toBeInstanceOf(Promise);
    expect(cache.get('tenant-a:dashboards', load)).toBeInstanceOf(Promise);
  });

  it('starts over past its size bound', async () => {
    const cache = new RefreshingCache<string>(30_000, 2);
    const load = jest.fn((): Promise<string> => Promise.resolve('v'));
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('c', load);

    expect(cache.get('c', load)).toBe('v');
    expect(cache.get('a', load)).toBeInstanceOf(Promise);
  });
});
