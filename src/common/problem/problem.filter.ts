import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestTraceIds } from '../../tracing/tracing';
import { explainFrameworkError } from './framework-errors';
import { PROBLEM_CONTENT_TYPE, ProblemException } from './problem';
import { toProblem } from './to-problem';

/** The last word on every error raised inside Nest: one problem+json shape, no internals. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemFilter');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    sendProblem(request, reply, explainFrameworkError(error, request), this.logger);
  }
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
  logger: Logger,
): void {
  const { body, headers } = toProblem(error, String(request.id), requestTraceIds(request.raw)?.traceId);
  if (body.status >= 500 && !(error instanceof ProblemException) && !(error instanceof HttpException)) {
    // The original error is logged (without request bodies or headers); the caller sees only the request id.
    logger.error({ err: error, requestId: request.id }, 'unhandled error');
  }
  if (reply.sent) return;
  void reply.status(body.status).headers(headers).header('content-type', PROBLEM_CONTENT_TYPE).send(body);
}
