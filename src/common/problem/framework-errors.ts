import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from '../request-id';
import { GatewayRequestError } from '../request-error';
import { PROBLEM_CONTENT_TYPE } from './problem';
import { toProblem } from './to-problem';

/**
 * Fastify's `frameworkErrors`: the router refuses a URL (a percent-escape that does not decode)
 * before any hook runs, so the request id header and the problem body are set here.
 */
export function sendFrameworkError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  const refusal = new GatewayRequestError(
    'GATEWAY_BAD_URL',
    (error as { code?: string }).code === 'FST_ERR_BAD_URL'
      ? 'The URL path has a percent-escape that does not decode.'
      : 'The request could not be routed.',
  );
  const { body } = toProblem(refusal, String(request.id));
  void reply
    .status(body.status)
    .header(REQUEST_ID_HEADER, request.id)
    .header('content-type', PROBLEM_CONTENT_TYPE)
    .send(body);
}

// Node's HTTP parser codes worth their own status; every other parse failure is a 400.
const CLIENT_ERRORS: Record<string, { status: number; detail: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, detail: 'The request headers are larger than the limit.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, detail: 'The request was not received in time.' },
};
const UNPARSEABLE = {
  status: 400,
  detail: 'The request is not valid HTTP (for example a header with a control character).',
};

/**
 * Fastify's `clientErrorHandler`: Node's parser refused the request (headers too large, CR/LF or
 * other bytes not allowed in a header) before there is a request to answer. The answer is still
 * problem+json with a request id, written straight to the socket, which is then closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, detail } = CLIENT_ERRORS[error.code ?? ''] ?? UNPARSEABLE;
  const requestId = randomUUID();
  const refusal = new GatewayRequestError('GATEWAY_UNPARSEABLE_REQUEST', detail, status);
  const body = JSON.stringify(toProblem(refusal, requestId).body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `content-type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
        'connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}
