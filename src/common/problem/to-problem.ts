import { HttpException, NotFoundException } from '@nestjs/common';
import { databaseUnavailableProblem } from '../../database/database-errors';
import { redactText } from '../../redaction/redact';
import { defaultSlugAndTitle, Problem, ProblemException, ProblemFieldError, problemTypeUri } from './problem';

export interface RenderedProblem {
  body: Problem;
  headers: Record<string, string>;
}

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message?: string;
  validation?: unknown;
}

/**
 * Turns any thrown value into the gateway's problem document, with the request's trace id beside
 * its request id while tracing. Unknown errors become a plain 500 whose detail reveals nothing
 * about the internals; the caller logs the original.
 */
export function toProblem(error: unknown, requestId: string, traceId?: string): RenderedProblem {
  const rendered = problemOf(error, requestId);
  if (traceId === undefined) return rendered;
  const { type, title, status, detail, requestId: id, ...rest } = rendered.body;
  return { ...rendered, body: { type, title, status, detail, requestId: id, traceId, ...rest } };
}

function problemOf(error: unknown, requestId: string): RenderedProblem {
  const problem = error instanceof ProblemException ? error : databaseUnavailableProblem(error);
  if (problem) {
    const { status, type, title, detail, errors, upstream, tenantId, pipes, headers } = problem.problem;
    return {
      body: compact({
        type: problemTypeUri(type),
        title,
        status,
        // Both can quote what the caller sent (an unknown field's name, a bad id): no secret is echoed.
        detail: redactText(detail),
        requestId,
        errors: errors?.map((error) => ({
          path: redactText(error.path),
          message: redactText(error.message),
        })),
        upstream,
        tenantId,
        pipes,
      }),
      headers: headers ?? {},
    };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const [slug, title] = defaultSlugAndTitle(status);
    return {
      body: compact({
        type: problemTypeUri(slug),
        title,
        status,
        detail: redactText(httpExceptionDetail(error)),
        requestId,
      }),
      headers: {},
    };
  }
  // Fastify's own errors reach here as HttpException (Nest wraps them); the gateway's body and
  // request checks (GatewayRequestError) come as they are.
  const fastify = error as FastifyLikeError;
  if (typeof fastify?.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    const [slug, title] = defaultSlugAndTitle(fastify.statusCode);
    // The gateway's own body checks word their message for callers; other libraries' may not.
    const detail = fastify.code?.startsWith('GATEWAY_') && fastify.message ? fastify.message : `${title}.`;
    return {
      body: { type: problemTypeUri(slug), title, status: fastify.statusCode, detail, requestId },
      headers: {},
    };
  }
  const [slug, title] = defaultSlugAndTitle(500);
  return {
    body: {
      type: problemTypeUri(slug),
      title,
      status: 500,
      detail: 'An unexpected error occurred; quote the request id when reporting it.',
      requestId,
    },
    headers: {},
  };
}

// Nest's answer to an unknown route quotes the URL; its query string is the caller's and stays out.
const UNKNOWN_ROUTE = /^(Cannot [A-Z]+ [^?\s]*)\?\S*$/;

function httpExceptionDetail(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  if (error instanceof NotFoundException) return error.message.replace(UNKNOWN_ROUTE, '$1');
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.join('; ');
  return error.message;
}

function compact(problem: Problem & { errors?: ProblemFieldError[] }): Problem {
  const result: Problem = {
    type: problem.type,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    requestId: problem.requestId,
  };
  if (problem.errors && problem.errors.length > 0) result.errors = problem.errors;
  if (problem.upstream) result.upstream = problem.upstream;
  if (problem.tenantId) result.tenantId = problem.tenantId;
  if (problem.pipes) result.pipes = problem.pipes;
  return result;
}
