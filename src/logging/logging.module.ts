import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import type { AppConfig } from '../config/app-config';
import { redactSecrets } from '../redaction/redact';

/** Set by the HTTP layer once Fastify has matched a route, so the access log names the route. */
export type RoutedRequest = IncomingMessage & { routePattern?: string };

/**
 * Structured JSON logs. Request bodies, headers and query strings are never logged; every other
 * logged object goes through the shared redaction, so a secret cannot reach a log line.
 */
@Module({})
export class LoggingModule {
  static forRoot(destination?: Writable): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService<AppConfig, true>) => ({
            pinoHttp: [
              {
                level: config.get('logLevel', { infer: true }),
                // Fastify already chose the id (bootstrap.ts) and stored it on the raw request.
                genReqId: (request: IncomingMessage) => request.id,
                customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
                serializers: {
                  req: (request: RoutedRequest) => ({
                    method: request.method,
                    path: request.url?.split('?')[0],
                  }),
                  // The status is logged from the raw response (customProps): pino's wrapper reads it too early.
                  res: () => undefined,
                },
                customProps: (request: IncomingMessage, response: ServerResponse) => ({
                  route: (request as RoutedRequest).routePattern,
                  status: response.statusCode,
                }),
                customLogLevel: (_request: IncomingMessage, response: ServerResponse, error?: Error) =>
                  error || response.statusCode >= 500 ? 'error' : 'info',
                quietReqLogger: true,
                formatters: { log: (object: Record<string, unknown>) => redactSecrets(object) },
              },
              destination ?? pino.destination(1),
            ],
            // Health probes and metrics scrapes would drown everything else.
            exclude: [
              { method: RequestMethod.ALL, path: 'health/*path' },
              { method: RequestMethod.ALL, path: 'metrics' },
            ],
          }),
        }),
      ],
    };
  }
}
