import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { HttpException, NotFoundException } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestTraceIds } from '../../tracing/tracing';
import { REQUEST_ID_HEADER } from '../request-id';
import { GatewayRequestError } from '../request-error';
import { PROBLEM_CONTENT_TYPE, ProblemException } from './problem';
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
  const { body } = toProblem(refusal, String(request.id), requestTraceIds(request.raw)?.traceId);
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

interface RoutePath {
  /** Literal segments, or null where the route takes a parameter. */
  segments: (string | null)[];
  methods: Set<string>;
}

const routePaths = new WeakMap<FastifyInstance, Map<string, RoutePath>>();

/**
 * Keeps which methods each route path of `fastify` answers, as routes are added, so that a known
 * path asked with another method is answered 405 with Allow rather than 404. Paths with a wildcard
 * (the CORS preflight, the docs' static files) would match every URL below them and are left out.
 */
export function trackRouteMethods(fastify: FastifyInstance): void {
  const paths = new Map<string, RoutePath>();
  routePaths.set(fastify, paths);
  fastify.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    const path = paths.get(route.url) ?? {
      segments: route.url.split('/').map((segment) => (segment.startsWith(':') ? null : segment)),
      methods: new Set<string>(),
    };
    for (const method of [route.method].flat()) path.methods.add(method);
    paths.set(route.url, path);
  });
}

function allowedMethods(request: FastifyRequest, path = request.url.split('?')[0]): string[] {
  const segments = path.split('/');
  const allowed = new Set<string>();
  for (const path of routePaths.get(request.server)?.values() ?? []) {
    const matches =
      path.segments.length === segments.length &&
      path.segments.every((literal, i) => (literal === null ? segments[i] !== '' : literal === segments[i]));
    if (matches) for (const method of path.methods) allowed.add(method);
  }
  return [...allowed].sort();
}

/**
 * Words the framework's own refusals for callers: a body over the limit names the limit and its
 * setting; a request no route matched, on a path that other methods answer, is a 405 with Allow;
 * one on a path that exists under /v1 is a 404 that says so. Every other error is returned as it is.
 */
export function explainFrameworkError(error: unknown, request: FastifyRequest): unknown {
  // Nest hands Fastify's refusal on as a bare HttpException with its status (the only 413 not
  // raised as a ProblemException, which is how an upstream's 413 comes).
  if (error instanceof HttpException && !(error instanceof ProblemException) && error.getStatus() === 413) {
    return new GatewayRequestError(
      'GATEWAY_BODY_TOO_LARGE',
      `The request body is larger than the limit of ${request.routeOptions.bodyLimit} bytes (BODY_LIMIT_BYTES).`,
      413,
    );
  }
  // Nest's answer to a request that matched no route; a route's own 404 has a matched URL.
  if (error instanceof NotFoundException && request.routeOptions.url === undefined) {
    const allowed = allowedMethods(request);
    if (allowed.length > 0) {
      return new ProblemException({
        status: 405,
        type: 'method-not-allowed',
        title: 'Method not allowed',
        detail: `${request.method} is not allowed on this path; it answers ${allowed.join(', ')}.`,
        headers: { allow: allowed.join(', ') },
      });
    }
    // A path written without the API's version prefix, which exists with it.
    const path = request.url.split('?')[0];
    if (!path.startsWith('/v1/') && allowedMethods(request, `/v1${path}`).length > 0) {
      return new ProblemException({
        status: 404,
        type: 'not-found',
        title: 'Not found',
        detail: `Cannot ${request.method} ${path}: the API is under /v1; did you mean /v1${path}?`,
      });
    }
  }
  return error;
}
