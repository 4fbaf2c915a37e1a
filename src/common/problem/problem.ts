import { HttpException, HttpStatus } from '@nestjs/common';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
export const PROBLEM_TYPE_BASE = 'https://pipes-gateway.dev/problems/';

export interface ProblemFieldError {
  path: string;
  message: string;
}

/** A pipe a problem names: on a 409 `secret-in-use`, one that uses the secret. */
export interface ProblemPipe {
  pipeId: string;
  /** As the gateway last created or renamed it; null when it never did. */
  name: string | null;
  organizationId: string;
  serviceId: string;
  /** Where in the pipe the secret stands. */
  paths: string[];
}

export interface UpstreamProblem {
  status: number;
  requestId?: string;
  body: unknown;
}

/** RFC 9457 problem details, the one error shape of the gateway (docs/api.md, "Errors"). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  requestId: string;
  /** While tracing: the W3C trace id of the request, to find its trace with. */
  traceId?: string;
  errors?: ProblemFieldError[];
  upstream?: UpstreamProblem;
  /** On a 409 for a tenant name that is taken, or a group assigned elsewhere: the tenant that has it. */
  tenantId?: string;
  pipes?: ProblemPipe[];
}

export interface ProblemInit {
  status: number;
  /** Short slug appended to PROBLEM_TYPE_BASE, e.g. `validation-failed`. */
  type: string;
  title: string;
  detail: string;
  errors?: ProblemFieldError[];
  upstream?: UpstreamProblem;
  tenantId?: string;
  pipes?: ProblemPipe[];
  /** Extra response headers, e.g. Retry-After. */
  headers?: Record<string, string>;
}

/**
 * An error that already knows its problem document. Services throw these (or a subclass);
 * the filter renders them as they are.
 */
export class ProblemException extends HttpException {
  constructor(readonly problem: ProblemInit) {
    super(problem.detail, problem.status);
  }
}

export const problemTypeUri = (slug: string): string => `${PROBLEM_TYPE_BASE}${slug}`;

const TITLES: Record<number, [slug: string, title: string]> = {
  400: ['bad-request', 'Bad request'],
  401: ['unauthenticated', 'Authentication required'],
  403: ['forbidden', 'Forbidden'],
  404: ['not-found', 'Not found'],
  405: ['method-not-allowed', 'Method not allowed'],
  406: ['not-acceptable', 'Not acceptable'],
  408: ['request-timeout', 'Request timeout'],
  409: ['conflict', 'Conflict'],
  412: ['precondition-failed', 'Precondition failed'],
  413: ['payload-too-large', 'Payload too large'],
  415: ['unsupported-media-type', 'Unsupported media type'],
  422: ['unprocessable', 'Unprocessable request'],
  428: ['precondition-required', 'Precondition required'],
  429: ['too-many-requests', 'Too many requests'],
  431: ['headers-too-large', 'Request headers too large'],
  500: ['internal', 'Internal error'],
  502: ['bad-gateway', 'Bad gateway'],
  503: ['unavailable', 'Service unavailable'],
  504: ['gateway-timeout', 'Gateway timeout'],
};

export function defaultSlugAndTitle(status: number): [string, string] {
  return TITLES[status] ?? (status >= 500 ? TITLES[500] : TITLES[400]);
}

export function problemFor(
  status: HttpStatus,
  detail: string,
  errors?: ProblemFieldError[],
): ProblemException {
  const [type, title] = defaultSlugAndTitle(status);
  return new ProblemException({ status, type, title, detail, errors });
}
