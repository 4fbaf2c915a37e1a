import { ReadCache } from './read-cache';

describe('ReadCache', () => {
  let now = 1_000;
  const clock = () => now;
  const deferred = () => {
    let resolve!: (value: string) => void;
    const promise = new Promise<string>((done) => (resolve = done));
    return { promise, resolve };
  };

  it('serves a kept answer until its lifetime ends, counted from when its call began', async () => {
    const cache = new ReadCache<string>(2_000, 100, clock);
    const fetch = jest.fn(() => Promise.resolve('a'));
    expect(await cache.read('s', 'k', 'v1', fetch)).toEqual({ value: 'a', fetchedAt: 1_000 });
    now = 2_999;
    await cache.read('s', 'k', 'v1', fetch);
    expect(fetch).toHaveBeenCalledTimes(1);
    now = 3_000;
    await cache.read('s', 'k', 'v1', fetch);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('shares a call in flight, but not across versions', async () => {
    const cache = new ReadCache<string>(2_000, 100, clock);
    const call = deferred();
    const fetch = jest.fn(() => call.promise);
    const first = cache.read('s', 'k', 'v1', fetch);
    const second = cache.read('s', 'k', 'v1', fetch);
    void cache.read('s', 'k', 'v2', () => Promise.resolve('other'));
    call.resolve('a');
    expect((await first).value).toBe('a');
    expect((await second).value).toBe('a');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('keeps nothing of a call that began before its scope was dropped, and starts a new one', async () => {
    const cache = new ReadCache<string>(2_000, 100, clock);
    const call = deferred();
    const early = cache.read('s', 'k', 'v1', () => call.promise);
    cache.drop('s');
    const later = cache.read('s', 'k', 'v1', () => Promise.resolve('new'));
    call.resolve('old');
    expect((await early).value).toBe('old');
    expect((await later).value).toBe('new');
    expect((await cache.read('s', 'k', 'v1', () => Promise.resolve('third'))).value).toBe('new');
    expect(cache.keys()).toEqual(['s|k']);
  });

  it('keeps no failure, and keeps nothing with a lifetime of 0', async () => {
    const cache = new ReadCache<string>(2_000, 100, clock);
    await expect(cache.read('s', 'k', 'v1', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect((await cache.read('s', 'k', 'v1', () => Promise.resolve('up'))).value).toBe('up');
    const off = new ReadCache<string>(0, 100, clock);
    await off.read('s', 'k', 'v1', () => Promise.resolve('a'));
    expect(off.keys()).toEqual([]);
  });

  it('keeps an answer made elsewhere only for what remains of its lifetime', async () => {
    const cache = new ReadCache<string>(2_000, 100, clock);
    const fetch = jest.fn(() => Promise.resolve({ value: 'shared', fetchedAt: now - 1_500 }));
    expect(await cache.readKept('s', 'aged', 'v1', fetch)).toEqual({
      value: 'shared',
      fetchedAt: now - 1_500,
    });
    now += 499;
    await cache.readKept('s', 'aged', 'v1', fetch);
    expect(fetch).toHaveBeenCalledTimes(1);
    now += 1;
    await cache.readKept('s', 'aged', 'v1', fetch);
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
