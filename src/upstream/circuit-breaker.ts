import {
  BrokenCircuitError,
  circuitBreaker,
  CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  handleWhen,
} from 'cockatiel';
import { ProblemException } from '../common/problem/problem';

// Outcomes that say the upstream (not the request) is failing.
const FAILURE_TYPES = new Set([
  'upstream-error',
  'upstream-unreachable',
  'upstream-timeout',
  'upstream-invalid-answer',
]);

export function isUpstreamFailure(error: unknown): boolean {
  return error instanceof ProblemException && FAILURE_TYPES.has(error.problem.type);
}

export type BreakerState = 'closed' | 'open' | 'half-open';

const STATE_NAMES: Partial<Record<CircuitState, BreakerState>> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half-open',
};

// Past this many credentials, the breakers that are closed are forgotten.
const MAX_BREAKERS = 10_000;

interface Breaker {
  policy: CircuitBreakerPolicy;
  openedAt: number;
}

/**
 * One cockatiel circuit breaker per upstream credential: after `threshold` upstream failures in
 * a row (a success resets the count; an error that is not the upstream failing, such as a 404
 * answer, leaves it), calls fail fast with 503 for `openMs`. Then one call goes through as the
 * probe while the others wait for its outcome, which closes the circuit or opens it again.
 */
export class CircuitBreakers {
  private readonly breakers = new Map<string, Breaker>();

  constructor(
    private readonly threshold = 5,
    private readonly openMs = 30_000,
    private readonly onChange: (key: string, state: BreakerState) => void = () => undefined,
  ) {}

  /** Runs `call` through the key's breaker; 503 `upstream-circuit-open` while it is open. */
  async run<T>(key: string, label: string, call: () => Promise<T>): Promise<T> {
    const breaker = this.breakerFor(key);
    try {
      return await breaker.policy.execute(call);
    } catch (error) {
      if (!(error instanceof BrokenCircuitError)) throw error;
      const retryAfter = Math.max(1, Math.ceil((breaker.openedAt + this.openMs - Date.now()) / 1000));
      throw new ProblemException({
        status: 503,
        type: 'upstream-circuit-open',
        title: 'Upstream failing',
        detail: `The ${label} failed ${this.threshold} times in a row for this credential; calls are paused for ${retryAfter} s (Retry-After).`,
        headers: { 'retry-after': String(retryAfter) },
      });
    }
  }

  private breakerFor(key: string): Breaker {
    let breaker = this.breakers.get(key);
    if (breaker) return breaker;
    if (this.breakers.size >= MAX_BREAKERS) {
      for (const [known, { policy }] of this.breakers)
        if (policy.state === CircuitState.Closed) this.breakers.delete(known);
    }
    const policy = circuitBreaker(handleWhen(isUpstreamFailure), {
      halfOpenAfter: this.openMs,
      breaker: new ConsecutiveBreaker(this.threshold),
    });
    breaker = { policy, openedAt: 0 };
    const opened = breaker;
    policy.onBreak(() => (opened.openedAt = Date.now()));
    policy.onStateChange((state) => {
      const name = STATE_NAMES[state];
      if (name) this.onChange(key, name);
    });
    this.breakers.set(key, breaker);
    return breaker;
  }
}
