import type { Writable } from 'node:stream';
import { DynamicModule, LoggerService, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LoggerModule } from 'nestjs-pino';
import pino, { Logger as PinoInstance } from 'pino';
import type { AppConfig } from '../config/app-config';
import { redactSecrets, redactText } from '../redaction/redact';
import { activeTraceIds, requestTraceIds, tracingOn } from '../tracing/tracing';
import { logDestination } from './log-destination';

/** The one pino logger: Nest's logger writes through it, and so does the access log. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/**
 * Structured JSON logs (readable lines in development on a terminal: logDestination). Request bodies, headers and query strings are never logged; every logged
 * object goes through the shared redaction, so a secret cannot reach a log line.
 *
 * nestjs-pino carries Nest's logger; its per-request middleware (pino-http with a child logger
 * per request, kept in AsyncLocalStorage) is not mounted, as it costs reads measurably more
 * (docs/architecture.md). Each request is logged once, from Fastify's onResponse hook (logAccess).
 */
@Module({})
export class LoggingModule {
  static forRoot(destination?: Writable): DynamicModule {
    // One module instance, imported by nestjs-pino and re-exported here: one logger for both.
    const rootLogger: DynamicModule = {
      module: RootLoggerModule,
      providers: [
        {
          provide: ROOT_LOGGER,
          inject: [ConfigService],
          useFactory: (config: ConfigService<AppConfig, true>): PinoInstance =>
            pino(
              {
                level: config.get('logLevel', { infer: true }),
                formatters: { log: (object: Record<string, unknown>) => redactSecrets(object) },
                // While tracing, every line written within a traced request names its span.
                ...(tracingOn() ? { mixin: activeTraceFields } : {}),
              },
              destination ?? logDestination(config.get('env', { infer: true })),
            ),
        },
      ],
      exports: [ROOT_LOGGER],
    };
    return {
      module: LoggingModule,
      imports: [
        rootLogger,
        LoggerModule.forRootAsync({
          imports: [rootLogger],
          inject: [ROOT_LOGGER],
          useFactory: (logger: PinoInstance) => ({ pinoHttp: { logger }, forRoutes: [] }),
        }),
      ],
      exports: [rootLogger],
    };
  }
}

@Module({})
class RootLoggerModule {}

function activeTraceFields(): object {
  const ids = activeTraceIds();
  return ids === undefined ? {} : { trace_id: ids.traceId, span_id: ids.spanId };
}

// Health probes and metrics scrapes would drown everything else.
const UNLOGGED_ROUTES = new Set(['/health/live', '/health/ready', '/metrics']);

/**
 * Where the access lines go: the root logger without its redaction of every logged object, as
 * logAccess redacts the one field of the line that a caller wrote, the path.
 */
export function accessLogger(root: PinoInstance): PinoInstance {
  return root.child({}, { formatters: { log: (line: object) => line } });
}

/**
 * One line per request: id, method, path (never the query), matched route, status, duration, and
 * while tracing its server span. The request id was screened when it was taken; the route is a
 * pattern of the gateway's own.
 */
export function logAccess(
  logger: PinoInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  route: string | undefined,
): void {
  if (route !== undefined && UNLOGGED_ROUTES.has(route)) return;
  const status = reply.statusCode;
  const level = status >= 500 ? 'error' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const query = request.url.indexOf('?');
  const line: Record<string, unknown> = {
    requestId: request.id,
    req: {
      method: request.method,
      path: redactText(query < 0 ? request.url : request.url.slice(0, query)),
    },
    route,
    status,
    durationMs: Math.round(reply.elapsedTime),
  };
  // The span has ended when this hook runs: the request names it.
  const trace = requestTraceIds(request.raw);
  if (trace !== undefined) {
    line.trace_id = trace.traceId;
    line.span_id = trace.spanId;
  }
  logger[level](line, 'request completed');
}

// Where Nest writes its own start-up lines: modules initialised, each route mapped, app started.
const FRAMEWORK_START_UP = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * Nest's logger, with the framework's start-up lines (some 60 on every start) at debug rather than
 * info: they matter when debugging the start, not on every start. Everything else is unchanged.
 */
export class QuietStartLogger implements LoggerService {
  constructor(private readonly logger: LoggerService) {}

  log(message: unknown, ...rest: unknown[]): void {
    if (FRAMEWORK_START_UP.has(rest[rest.length - 1] as string)) this.logger.debug?.(message, ...rest);
    else this.logger.log(message, ...rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.logger.error(message, ...rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.logger.warn(message, ...rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.logger.debug?.(message, ...rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.logger.verbose?.(message, ...rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.logger.fatal?.(message, ...rest);
  }
}
