import { ProblemException, UpstreamProblem } from '../common/problem/problem';

export type UpstreamName = 'pipes' | 'dashboards';

const LABEL: Record<UpstreamName, string> = { pipes: 'pipes API', dashboards: 'dashboards API' };

/** The upstream refused the stored credential (401/403): the gateway's problem, not the caller's. */
export class UpstreamCredentialRejectedException extends ProblemException {
  constructor(
    upstream: UpstreamName,
    readonly upstreamStatus: number,
    detailOfUpstream: UpstreamProblem,
  ) {
    super({
      status: 502,
      type: 'upstream-credential-rejected',
      title: 'Upstream refused the stored credential',
      detail: `The ${LABEL[upstream]} answered ${upstreamStatus} to the stored credential; it is marked rejected until an admin rotates it.`,
      upstream: detailOfUpstream,
    });
  }
}

export function upstreamUnreachable(upstream: UpstreamName, reason: string): ProblemException {
  return new ProblemException({
    status: 502,
    type: 'upstream-unreachable',
    title: 'Upstream unreachable',
    detail: `The ${LABEL[upstream]} could not be reached (${reason}).`,
  });
}

export function upstreamTimeout(upstream: UpstreamName, timeoutMs: number): ProblemException {
  return new ProblemException({
    status: 504,
    type: 'upstream-timeout',
    title: 'Upstream timeout',
    detail: `The ${LABEL[upstream]} did not answer within ${timeoutMs} ms.`,
  });
}

export function upstreamServerError(upstream: UpstreamName, detail: UpstreamProblem): ProblemException {
  return new ProblemException({
    status: 502,
    type: 'upstream-error',
    title: 'Upstream error',
    detail: `The ${LABEL[upstream]} answered ${detail.status}.`,
    upstream: detail,
  });
}

export function upstreamMalformed(upstream: UpstreamName, status: number): ProblemException {
  return new ProblemException({
    status: 502,
    type: 'upstream-malformed-response',
    title: 'Malformed upstream response',
    detail: `The ${LABEL[upstream]} answered ${status} with a body that is not the JSON its contract promises.`,
  });
}

/** A 2xx whose body lacks what the operation needs (`missing` names it): the call may have taken effect. */
export function upstreamInvalidAnswer(
  upstream: UpstreamName,
  status: number,
  missing: string,
): ProblemException {
  return new ProblemException({
    status: 502,
    type: 'upstream-invalid-answer',
    title: 'Unusable upstream answer',
    detail: `The ${LABEL[upstream]} answered ${status} without ${missing}; check upstream whether the change was made.`,
  });
}

export function upstreamRateLimited(
  upstream: UpstreamName,
  retryAfterSeconds: number,
  detail: UpstreamProblem,
): ProblemException {
  return new ProblemException({
    status: 429,
    type: 'upstream-rate-limited',
    title: 'Upstream rate limit',
    detail: `The ${LABEL[upstream]} is rate limiting this credential; retry after ${retryAfterSeconds} s.`,
    upstream: detail,
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

export function upstreamServiceIdle(detail: UpstreamProblem): ProblemException {
  return new ProblemException({
    status: 424,
    type: 'upstream-service-idle',
    title: 'Service idle',
    detail: 'The target service is idle; wake it in the console and try again.',
    upstream: detail,
  });
}

/** 400, 404, 409 and other client errors reach the caller with the upstream status. */
export function upstreamClientError(upstream: UpstreamName, detail: UpstreamProblem): ProblemException {
  const status = [400, 404, 409, 412, 413, 422].includes(detail.status) ? detail.status : 502;
  return new ProblemException({
    status,
    type: 'upstream-rejected-request',
    title: 'Upstream rejected the request',
    detail: `The ${LABEL[upstream]} answered ${detail.status}; see upstream.body.`,
    upstream: detail,
  });
}
