import type { Writable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { createValidationPipe } from './common/problem/validation';
import { REQUEST_ID_HEADER, requestIdFor } from './common/request-id';
import type { AppConfig } from './config/app-config';
import type { RoutedRequest } from './logging/logging.module';

export interface CreateAppOptions {
  /** Keep Nest's own start-up chatter out of test output. */
  quiet?: boolean;
  /** Where JSON log lines go; stdout by default. */
  logDestination?: Writable;
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
    // Behind a load balancer the caller's address comes from X-Forwarded-For.
    trustProxy: true,
    genReqId: (request: IncomingMessage) => {
      const id = requestIdFor(request);
      request.id = id;
      return id;
    },
    return503OnClosing: true,
  });
  const fastify = adapter.getInstance();
  // The facade speaks JSON only; any other body is refused with 415 instead of reaching validation.
  fastify.removeContentTypeParser(['text/plain']);
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    (request.raw as RoutedRequest).routePattern = request.routeOptions.url;
  });

  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, { logDestination: options.logDestination }),
    adapter,
    {
      bufferLogs: true,
      logger: options.quiet ? false : undefined,
    },
  );
  const logger = app.get(Logger);
  app.useLogger(logger);
  app.useGlobalPipes(createValidationPipe());
  app.flushLogs();

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('pipes-gateway')
      .setDescription(
        'One REST facade for the pipes management API and the dashboards API. Callers authenticate with ' +
          'a gateway key (`Authorization: Bearer <key>`); upstream secrets never leave the gateway. ' +
          'Errors are RFC 9457 problem+json.',
      )
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Gateway key' }, 'gateway-key')
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });

  await app.init();
  await fastify.ready();
  return app;
}
