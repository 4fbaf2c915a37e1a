import type { Writable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import type { Logger as PinoInstance } from 'pino';
import { AppModule } from './app.module';
import { parseJsonBody } from './common/json-body';
import { protectiveHeaders } from './common/protective-headers';
import { answerClientError, sendFrameworkError, trackRouteMethods } from './common/problem/framework-errors';
import { assertDecodableQuery, assertNoNulInUrl, GatewayRequestError } from './common/request-error';
import { builtConsoleDirectory, serveConsole } from './console/console-static';
import { Drain } from './health/drain';
import { PipeEvents } from './pipe-events/pipe-events.service';
import { MetricsService } from './metrics/metrics.service';
import { createValidationPipe } from './common/problem/validation';
import { REQUEST_ID_HEADER, requestIdFor } from './common/request-id';
import type { AppConfig } from './config/app-config';
import { accessLogger, logAccess, QuietStartLogger, ROOT_LOGGER } from './logging/logging.module';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { stopTracing } from './tracing/start-tracing';
import { requestTraceIds } from './tracing/tracing';

const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;
const CLOSE_SWEEP_MS = 50;

export interface CreateAppOptions {
  /** Keep Nest's own start-up chatter out of test output. */
  quiet?: boolean;
  /** Where JSON log lines go; stdout by default. */
  logDestination?: Writable;
  /** The built console's folder; dist/console by default. */
  consoleDirectory?: string;
  /** What an in-memory embedded database starts from (tests: a migrated image, built once a run). */
  embeddedDatabaseImage?: Blob;
}

/**
 * Builds the gateway exactly as production runs it; main.ts and the e2e tests both use this,
 * so tests exercise the real pipeline (Fastify, filters, validation, logging).
 */
export async function createApp(
  config: AppConfig,
  options: CreateAppOptions = {},
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.http.bodyLimitBytes,
    trustProxy: config.http.trustProxy,
    // Node's parser answers a request not received in time with 408 (answerClientError). It only
    // bounds receiving the request: a long answer, as an event stream is, runs on.
    requestTimeout: config.http.requestTimeoutMs,
    http: {
      headersTimeout: config.http.headersTimeoutMs,
      requestTimeout: config.http.requestTimeoutMs,
      // Node looks for late requests this often (30 s unless told), which adds to both bounds.
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
    },
    genReqId: (request: IncomingMessage) => {
      const id = requestIdFor(request);
      request.id = id;
      return id;
    },
    return503OnClosing: true,
    frameworkErrors: sendFrameworkError,
    clientErrorHandler: answerClientError,
  });
  const fastify = adapter.getInstance();
  trackRouteMethods(fastify);
  // The facade speaks JSON only; any other body is refused with 415 instead of reaching validation.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);
  // Fastify's own 415 repeats the Content-Type it got in its message, whatever that holds.
  fastify.addContentTypeParser('*', (_request, _payload, done) =>
    done(
      new GatewayRequestError(
        'GATEWAY_UNSUPPORTED_MEDIA_TYPE',
        'Send the request body as application/json.',
        415,
      ),
    ),
  );
  // helmet's headers, computed once (@fastify/helmet rebuilds helmet on every request).
  const securityHeaders = protectiveHeaders();
  // Set once the modules are built; no request is taken before.
  const built: { drain?: Drain } = {};
  // Hooks on every request take a callback: an async hook costs Fastify a promise and a tick more.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.headers(securityHeaders).header(REQUEST_ID_HEADER, request.id);
    // A client's next request then opens a new connection, which a balancer (one that only forwards
    // connections too) gives to a replica that is not stopping.
    if (built.drain!.draining) void reply.header('connection', 'close');
    try {
      assertNoNulInUrl(request.url);
      assertDecodableQuery(request.url);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });

  serveConsole(fastify, config, options.consoleDirectory ?? builtConsoleDirectory());

  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, {
      logDestination: options.logDestination,
      embeddedDatabaseImage: options.embeddedDatabaseImage,
    }),
    adapter,
    {
      bufferLogs: true,
      // A failed start is thrown to the caller (main prints it on one line) instead of Nest logging
      // its stack and exiting; the lines buffered until then are dropped with it.
      abortOnError: false,
      autoFlushLogs: false,
      // The JSON parser is the gateway's own (parseJsonBody): bounded depth, no prototype poisoning.
      bodyParser: false,
      logger: options.quiet ? false : undefined,
    },
  );
  app.useLogger(new QuietStartLogger(app.get(Logger)));
  built.drain = app.get(Drain);
  app.useGlobalPipes(createValidationPipe());
  // Without allowed origins there is nothing to answer: no hook on every request then, and a
  // preflight gets the same 404 it would get from the CORS plugin turned off.
  if (config.http.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.http.corsOrigins,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: [
        'Authorization',
        'Content-Type',
        'Idempotency-Key',
        'If-Match',
        'If-None-Match',
        'Last-Event-ID',
        'X-On-Behalf-Of',
        'X-Request-Id',
        'X-Tenant-Id',
      ],
      // No cookies: browsers send a user's token in Authorization, so credentials mode stays off.
      exposedHeaders: ['Age', 'ETag', 'Retry-After', 'WWW-Authenticate', 'X-Request-Id'],
      maxAge: 600,
    });
  }
  const metrics = app.get(MetricsService);
  const accessLines = accessLogger(app.get<PinoInstance>(ROOT_LOGGER));
  fastify.addHook('onResponse', (request, reply, done) => {
    // Fastify builds routeOptions afresh on every read.
    const route = request.routeOptions.url;
    logAccess(accessLines, request, reply, route);
    metrics.observeHttp(
      request.method,
      route ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
      requestTraceIds(request.raw),
    );
    done();
  });
  // Open event streams never end by themselves: the server's close would wait for them.
  const pipeEvents = app.get(PipeEvents);
  fastify.addHook('preClose', (done) => {
    pipeEvents.endAll();
    done();
  });
  app.flushLogs();

  // Built on the first request for it, then kept: a gateway never asked for it does not hold it.
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, config), { jsonDocumentUrl: 'docs-json' });

  try {
    await app.init();
    await fastify.ready();
  } catch (error) {
    // A start refused (a key check, a migration) releases what it opened: database, data folder.
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}

/**
 * Stops taking requests and lets the ones in flight finish, then shuts the modules down. Nest's
 * own close() destroys modules (database, upstream pools) before the server stops, which would cut
 * in-flight requests short.
 */
export async function closeGracefully(app: NestFastifyApplication): Promise<void> {
  // Node closes the connections idle when the close begins; one whose request is answered later
  // would be kept alive for its keep-alive timeout, holding the close up that long.
  const server = app.getHttpServer();
  const sweep = setInterval(() => server.closeIdleConnections(), CLOSE_SWEEP_MS);
  try {
    await app.getHttpAdapter().getInstance().close();
  } finally {
    clearInterval(sweep);
  }
  await app.close();
  // The spans of the last requests leave before the process does.
  await stopTracing();
}

/**
 * A stop the platform asked for (SIGTERM): readiness answers 503 at once while every request is
 * still served, for `drainMs` or until `cut` aborts, so that balancers take the replica out before
 * it closes; then closeGracefully, which ends open event streams with `stream.end`.
 */
export async function drainAndClose(
  app: NestFastifyApplication,
  drainMs: number,
  cut?: AbortSignal,
): Promise<void> {
  app.get(Drain).begin();
  await sleep(drainMs, undefined, { signal: cut }).catch(() => undefined);
  await closeGracefully(app);
}
