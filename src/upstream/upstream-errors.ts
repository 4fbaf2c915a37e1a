import { ProblemException, UpstreamProblem } from '../common/problem/problem';

export type UpstreamName = 'pipes' | 'dashboards';

const LABEL: Record<UpstreamName, string> = { pipes: 'pipes API', dashboards: 'dashboards API' };

/** A stored credential as its problems name it: what GET /v1/credentials shows every reader of the tenant. */
export interface NamedCredential {
  id: string;
  name: string;
}

/** The upstream refused the stored credential (401/403): the gateway's problem, not the caller's. */
export class UpstreamCredentialRejectedException extends ProblemException {
  constructor(
    private readonly upstream: UpstreamName,
    readonly upstreamStatus: number,
    private readonly detailOfUpstream: UpstreamProblem,
    credential?: NamedCredential,
  ) {
    const which = credential
      ? `the stored credential "${credential.name}" (${credential.id})`
      : 'the stored credential';
    super({
      status: 502,
      type: 'upstream-credential-rejected',
      title: 'Upstream refused the stored credential',
      detail: `The ${LABEL[upstream]} answered ${upstreamStatus} to ${which}; it is marked rejected until an admin rotates it.`,
      upstream: detailOfUpstream,
    });
  }

  /** The same refusal naming the credential to rotate, which only the caller of the upstream knows. */
  naming(credential: NamedCredential): UpstreamCredentialRejectedException {
    return new UpstreamCredentialRejectedException(
      this.upstream,
      this.upstreamStatus,
      this.detailOfUpstream,
      credential,
    );
  }
}

/**
 * Refused, reset, unreachable, a connect timeout and a failed name lookup all read alike: what
 * happened to the connection would tell a caller which ports of an upstream host are open. The
 * address tried is named (upstreamAddress), so a caller can tell a wrong setting from an outage.
 */
export function upstreamUnreachable(upstream: UpstreamName, address: string): ProblemException {
  return new ProblemException({
    status: 502,
    type: 'upstream-unreachable',
    title: 'Upstream unreachable',
    detail: `The ${LABEL[upstream]} could not be reached at ${address}.`,
  });
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * An upstream base address as it may be shown: scheme, host and port only. User-info, path and
 * query may hold secrets (a token in a self-hosted address), so they are never shown.
 */
export function upstreamAddress(url: string): string {
  try {
    const parsed = new URL(url);
    const port = parsed.port || DEFAULT_PORTS[parsed.protocol] || '';
    return `${parsed.protocol}//${parsed.hostname}${port ? `:${port}` : ''}`;
  } catch {
    return '(an address that is not a URL)';
  }
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

export function upstreamAnswerTooLarge(upstream: UpstreamName, maxBytes: number): ProblemException {
  return new ProblemException({
    status: 502,
    type: 'upstream-answer-too-large',
    title: 'Upstream answer too large',
    detail: `The ${LABEL[upstream]} answered with more than ${maxBytes} bytes (UPSTREAM_MAX_ANSWER_BYTES); the gateway stopped reading and dropped the connection.`,
  });
}

/**
 * A 2xx whose body lacks what the operation needs (`missing` names it). The upstream may have
 * made the change all the same, so the problem carries its status and says so.
 */
export function upstreamInvalidAnswer(
  upstream: UpstreamName,
  status: number,
  missing: string,
  requestId?: string,
): ProblemException {
  return new ProblemException({
    status: 502,
    type: 'upstream-invalid-answer',
    title: 'Unusable upstream answer',
    detail: `The ${LABEL[upstream]} answered ${status} without ${missing}; check upstream whether the change was made before trying again.`,
    upstream: { status, ...(requestId === undefined ? {} : { requestId }), body: null },
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

/**
 * 400, 404, 409 and other client errors reach the caller with the upstream status. A frontend
 * shows `detail`, so it carries the upstream's own reason (from the body already scrubbed).
 */
export function upstreamClientError(upstream: UpstreamName, detail: UpstreamProblem): ProblemException {
  const status = [400, 404, 409, 412, 413, 422].includes(detail.status) ? detail.status : 502;
  const reason = upstreamReason(upstream, detail.body);
  return new ProblemException({
    status,
    type: 'upstream-rejected-request',
    title: 'Upstream rejected the request',
    detail:
      reason === null
        ? `The ${LABEL[upstream]} answered ${detail.status}; see upstream.body.`
        : `The ${LABEL[upstream]} refused: ${reason}`,
    upstream: detail,
  });
}

// Where each API puts its reason: the pipes API `{status, error, requestId}`, the dashboards API
// `{message}` or a plain-text body ("Not Found", "Params validation failed: …").
const REASON_FIELDS: Record<UpstreamName, readonly string[]> = {
  pipes: ['error', 'message'],
  dashboards: ['message', 'error'],
};

/** Characters of the upstream's reason `detail` quotes; the whole body stays in `upstream.body`. */
export const MAX_REASON_CHARS = 300;

/** The upstream's reason in an error body, on one line and cut short; null when it gives none. */
export function upstreamReason(upstream: UpstreamName, body: unknown): string | null {
  let text: unknown = body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    text = REASON_FIELDS[upstream].map((field) => record[field]).find((value) => typeof value === 'string');
  }
  if (typeof text !== 'string') return null;
  const line = text.replace(/\s+/g, ' ').trim();
  if (line === '') return null;
  return line.length <= MAX_REASON_CHARS ? line : `${line.slice(0, MAX_REASON_CHARS - 1).trimEnd()}…`;
}
