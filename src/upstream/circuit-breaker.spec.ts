import { ProblemException } from '../common/problem/problem';
import { CircuitBreakers, isUpstreamFailure } from './circuit-breaker';
import { upstreamClientError, upstreamServerError, upstreamTimeout } from './upstream-errors';

describe('CircuitBreakers', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('opens after the threshold, lets one probe through after the pause, and closes on success', async () => {
    const states: string[] = [];
    const breakers = new CircuitBreakers(3, 50, (_key, state) => states.push(state));
    for (let i = 0; i < 3; i++) {
      breakers.enter('k', 'pipes API');
      breakers.failed('k');
    }
    expect(() => breakers.enter('k', 'pipes API')).toThrow(ProblemException);
    await sleep(60);
    breakers.enter('k', 'pipes API'); // the probe
    expect(() => breakers.enter('k', 'pipes API')).toThrow(/paused/); // only one probe at a time
    breakers.succeeded('k');
    breakers.enter('k', 'pipes API');
    expect(states).toEqual(['open', 'half-open', 'closed']);
  });

  it('reopens when the probe fails', async () => {
    const breakers = new CircuitBreakers(1, 30);
    breakers.failed('k');
    await sleep(40);
    breakers.enter('k', 'x');
    breakers.failed('k');
    expect(() => breakers.enter('k', 'x')).toThrow(ProblemException);
  });

  it('keeps breakers per key', () => {
    const breakers = new CircuitBreakers(1, 10_000);
    breakers.failed('a');
    expect(() => breakers.enter('a', 'x')).toThrow();
    expect(() => breakers.enter('b', 'x')).not.toThrow();
  });

  it('counts only failures of the upstream itself', () => {
    expect(isUpstreamFailure(upstreamServerError('pipes', { status: 500, body: null }))).toBe(true);
    expect(isUpstreamFailure(upstreamTimeout('pipes', 1000))).toBe(true);
    expect(isUpstreamFailure(upstreamClientError('pipes', { status: 404, body: null }))).toBe(false);
    expect(isUpstreamFailure(new Error('x'))).toBe(false);
  });
});
