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

interface Breaker {
  failures: number;
  openedAt: number | null;
  probing: boolean;
}

/**
 * One breaker per upstream credential: after `threshold` failures in a row calls fail fast with
 * 503 for `openMs`; then a single probe is let through, and its outcome closes or reopens it.
 */
export class CircuitBreakers {
  private readonly breakers = new Map<string, Breaker>();

  constructor(
    private readonly threshold = 5,
    private readonly openMs = 30_000,
    private readonly onChange: (key: string, state: BreakerState) => void = () => undefined,
  ) {}

  /** Throws 503 when the breaker is open; otherwise lets the call through (maybe as the probe). */
  enter(key: string, label: string): void {
    const breaker = this.breakers.get(key);
    if (!breaker || breaker.openedAt === null) return;
    const waited = Date.now() - breaker.openedAt;
    if (waited < this.openMs || breaker.probing) {
      const retryAfter = Math.max(1, Math.ceil((this.openMs - waited) / 1000));
      throw new ProblemException({
        status: 503,
        type: 'upstream-circuit-open',
        title: 'Upstream failing',
        detail: `The ${label} failed ${this.threshold} times in a row for this credential; calls are paused for a moment.`,
        headers: { 'retry-after': String(retryAfter) },
      });
    }
    breaker.probing = true;
    this.onChange(key, 'half-open');
  }

  succeeded(key: string): void {
    if (this.breakers.delete(key)) this.onChange(key, 'closed');
  }

  failed(key: string): void {
    const breaker = this.breakers.get(key) ?? { failures: 0, openedAt: null, probing: false };
    breaker.failures += 1;
    if (breaker.probing || breaker.failures >= this.threshold) {
      breaker.openedAt = Date.now();
      breaker.probing = false;
      this.onChange(key, 'open');
    }
    if (this.breakers.size > 10_000 && !this.breakers.has(key)) this.breakers.clear();
    this.breakers.set(key, breaker);
  }
}
