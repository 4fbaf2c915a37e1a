/**
 * What a create answers when its Idempotency-Key was seen in the last 24 hours: the first answer
 * again for the same request, or a problem that says why not and what to do.
 */
import { ProblemException } from '../common/problem/problem';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

// Beyond the upstream deadline: the audited writes round the call, the wait for the upstream budget.
const PENDING_MARGIN_MS = 10_000;

/** How long a first request can still be running, given the upstream timeout. */
export function pendingLimitMs(upstreamTimeoutMs: number): number {
  return upstreamTimeoutMs + PENDING_MARGIN_MS;
}

/** The caller-facing answer kept for replays (redacted like every response). */
export interface StoredResponse {
  status: number;
  body: unknown;
}

export interface EarlierRequest {
  /** The same body sent to the same place: the keyed fingerprints match. */
  sameRequest: boolean;
  outcome: 'pending' | 'succeeded' | 'failed' | 'unknown';
  response: StoredResponse | null;
  createdAt: Date;
}

export interface ReplayedAnswer extends StoredResponse {
  /** A replayed failure keeps its problem+json media type. */
  problem: boolean;
}

/** What a first request made, to say what to check when its outcome is unknown. */
export interface RequestSubject {
  /** `pipe`, `dashboard`. */
  resource: string;
  /** Where the gateway recorded the request, e.g. `history entry <id>`. */
  record?: string;
}

/**
 * `pendingForMs` bounds how long a first request can still be running (its upstream deadline and
 * a margin): a pending record older than that was interrupted, and its outcome is unknown.
 */
export function replayOf(
  earlier: EarlierRequest,
  pendingForMs: number,
  subject: RequestSubject,
  now = Date.now(),
): ReplayedAnswer {
  if (!earlier.sameRequest) {
    throw new ProblemException({
      status: 422,
      type: 'idempotency-key-reused',
      title: 'Idempotency key reused',
      detail:
        'This Idempotency-Key was used within the last 24 hours for a different request; use a new key.',
    });
  }
  const interrupted = earlier.outcome === 'pending' && now - earlier.createdAt.getTime() > pendingForMs;
  if (earlier.outcome === 'pending' && !interrupted) throw idempotentRequestInProgress();
  if (interrupted || earlier.outcome === 'unknown' || earlier.response === null) {
    throw new ProblemException({
      status: 409,
      type: 'idempotent-outcome-unknown',
      title: 'Outcome unknown',
      detail:
        `The first request with this Idempotency-Key${subject.record ? ` (${subject.record})` : ''} was interrupted ` +
        `before its outcome was recorded, so the ${subject.resource} may or may not exist: list the ` +
        `${subject.resource}s upstream, and retry with a new key only if it is not there.`,
    });
  }
  return { ...earlier.response, problem: earlier.outcome === 'failed' };
}

export function idempotentRequestInProgress(): ProblemException {
  return new ProblemException({
    status: 409,
    type: 'idempotent-request-in-progress',
    title: 'Request in progress',
    detail: 'A request with this Idempotency-Key is still being processed; retry shortly.',
    headers: { 'retry-after': '1' },
  });
}
