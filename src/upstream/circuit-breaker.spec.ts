import { ProblemException } from '../common/problem/problem';
import { CircuitBreakers, isUpstreamFailure } from './circuit-breaker';
import { upstreamClientError, upstreamServerError, upstreamTimeout } from './upstream-errors';

describe('CircuitBreakers', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const failing = () => Promise.reject(upstreamServerError('pipes', { status: 500, body: null }));
  const fine = () => Promise.resolve('ok');
  const notFound = () => Promise.reject(upstreamClientError('pipes', { status: 404, body: null }));

  async function fail(breakers: CircuitBreakers, key: string, times: number): Promise<void> {
    for (let i = 0; i < times; i++) await expect(breakers.run(key, 'pipes API', failing)).rejects.toThrow();
  }

  it('opens after the threshold with a 503 that says when to retry, and calls nothing meanwhile', async () => {
    const breakers = new CircuitBreakers(3, 10_000);
    await fail(breakers, 'k', 3);
    const call = jest.fn(fine);
    const open = await breakers.run('k', 'pipes API', call).catch((error: unknown) => error);
    expect(open).toBeInstanceOf(ProblemException);
    expect((open as ProblemException).problem).toMatchObject({
      status: 503,
      type: 'upstream-circuit-open',
      detail: expect.stringMatching(
        /pipes API failed 3 times in a row .*; calls are paused for 10 s \(Retry-After\)\.$/,
      ),
      headers: { 'retry-after': '10' },
    });
    expect(call).not.toHaveBeenCalled();
  });

  it('lets one probe through after the pause, holds the others until it ends, and closes on success', async () => {
    const states: string[] = [];
    const breakers = new CircuitBreakers(3, 50, (_key, state) => states.push(state));
    await fail(breakers, 'k', 3);
    await sleep(60);
    let endProbe: (value: string) => void = () => undefined;
    const probe = jest.fn(() => new Promise<string>((resolve) => (endProbe = resolve)));
    const other = jest.fn(fine);
    const probed = breakers.run('k', 'pipes API', probe);
    const held = breakers.run('k', 'pipes API', other);
    await sleep(10);
    expect(other).not.toHaveBeenCalled();
    endProbe('probed');
    await expect(probed).resolves.toBe('probed');
    await expect(held).resolves.toBe('ok');
    expect(states).toEqual(['open', 'half-open', 'closed']);
  });

  it('reopens when the probe fails', async () => {
    const breakers = new CircuitBreakers(1, 30);
    await fail(breakers, 'k', 1);
    await sleep(40);
    await fail(breakers, 'k', 1);
    await expect(breakers.run('k', 'x', fine)).rejects.toMatchObject({
      problem: { type: 'upstream-circuit-open' },
    });
  });

  it('counts failures in a row: a success starts the count again, a 404 neither counts nor resets', async () => {
    const breakers = new CircuitBreakers(3, 10_000);
    await fail(breakers, 'k', 2);
    await breakers.run('k', 'x', fine);
    await fail(breakers, 'k', 2);
    await expect(breakers.run('k', 'x', notFound)).rejects.toMatchObject({ problem: { status: 404 } });
    await expect(breakers.run('k', 'x', fine)).resolves.toBe('ok');
    await fail(breakers, 'k', 2);
    await expect(breakers.run('k', 'x', notFound)).rejects.toMatchObject({ problem: { status: 404 } });
    await fail(breakers, 'k', 1);
    await expect(breakers.run('k', 'x', fine)).rejects.toMatchObject({
      problem: { type: 'upstream-circuit-open' },
    });
  });

  it('keeps breakers per key', async () => {
    const breakers = new CircuitBreakers(1, 10_000);
    await fail(breakers, 'a', 1);
    await expect(breakers.run('a', 'x', fine)).rejects.toMatchObject({ problem: { status: 503 } });
    await expect(breakers.run('b', 'x', fine)).resolves.toBe('ok');
  });

  it('counts only failures of the upstream itself', () => {
    expect(isUpstreamFailure(upstreamServerError('pipes', { status: 500, body: null }))).toBe(true);
    expect(isUpstreamFailure(upstreamTimeout('pipes', 1000))).toBe(true);
    expect(isUpstreamFailure(upstreamClientError('pipes', { status: 404, body: null }))).toBe(false);
    expect(isUpstreamFailure(new Error('x'))).toBe(false);
  });
});
