import { WaitTimeoutError } from './batcher';
import { KeyedLimiter, Limiter } from './limiter';

/** A call that runs until its test ends it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Limiter', () => {
  it('runs at most its limit at a time; the rest start in call order as slots free up', async () => {
    const limiter = new Limiter(2);
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        await g.opened;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    gates[1].open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0].open();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    gates.forEach((g) => g.open());
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(limiter.idle).toBe(true);
  });

  it('hands a freed slot to the longest waiter, not to a newcomer', async () => {
    const limiter = new Limiter(1);
    const first = gate();
    const order: string[] = [];
    const running = limiter.run(() => first.opened);
    const waiter = limiter.run(() => Promise.resolve(void order.push('waiter')));
    first.open();
    await running;
    const newcomer = limiter.run(() => Promise.resolve(void order.push('newcomer')));
    await Promise.all([waiter, newcomer]);
    expect(order).toEqual(['waiter', 'newcomer']);
  });

  it('frees the slot of a call that fails, and passes its error on', async () => {
    const limiter = new Limiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(limiter.idle).toBe(true);
    await expect(limiter.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});

describe('Limiter with a longest wait', () => {
  it('fails a call that waited that long without starting, and runs the others in order', async () => {
    jest.useFakeTimers();
    try {
      const limiter = new Limiter(1, 1_000);
      const first = gate();
      const running = limiter.run(() => first.opened.then(() => 'first'));
      const late = limiter.run(() => Promise.resolve('never')).catch((error: unknown) => error);
      jest.advanceTimersByTime(500);
      const next = limiter.run(() => Promise.resolve('next'));
      jest.advanceTimersByTime(600);
      expect(await late).toBeInstanceOf(WaitTimeoutError);
      first.open();
      expect(await running).toBe('first');
      expect(await next).toBe('next');
      expect(limiter.idle).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('KeyedLimiter', () => {
  it('limits each key on its own', async () => {
    const limiter = new KeyedLimiter<string>(1);
    const a = gate();
    const started: string[] = [];
    const runs = [
      limiter.run('a', async () => {
        started.push('a1');
        await a.opened;
      }),
      limiter.run('a', () => Promise.resolve(void started.push('a2'))),
      limiter.run('b', () => Promise.resolve(void started.push('b1'))),
    ];
    await tick();
    expect(started).toEqual(['a1', 'b1']);
    a.open();
    await Promise.all(runs);
    expect(started).toEqual(['a1', 'b1', 'a2']);
  });

  it('forgets a key once nothing runs or waits under it', async () => {
    const limiter = new KeyedLimiter<string>(2);
    const g = gate();
    const runs = ['a', 'a', 'a', 'b'].map((key) => limiter.run(key, () => g.opened));
    expect(limiter.size).toBe(2);
    g.open();
    await Promise.all(runs);
    expect(limiter.size).toBe(0);
    await expect(limiter.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(limiter.size).toBe(0);
  });
});
