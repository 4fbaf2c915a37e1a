/**
 * The OpenTelemetry Node SDK as the gateway runs it. Loaded (start-tracing.ts) only when tracing is
 * on, and before the modules it instruments: Fastify (each request's span, continuing the caller's
 * W3C trace context), undici (every upstream call, the identity provider's discovery and keys, the
 * trace context carried on), pg and ioredis.
 */
import type { IncomingMessage } from 'node:http';
import FastifyOtelInstrumentation from '@fastify/otel';
import type { FastifyRequest } from 'fastify';
import { context, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { SpanNotes, TraceBackend } from './tracing';
import type { TracingSettings } from './tracing-settings';
import { WorkerSpanExporter } from './worker-span-exporter';

// Probes and scrapes, every few seconds from every replica: as the access log leaves them out.
const UNTRACED_PATHS = new Set(['/health/live', '/health/ready', '/metrics']);

const SERVER_SPAN = Symbol('server span');

type TracedRequest = IncomingMessage & { [SERVER_SPAN]?: Span };

export interface StartedTracing {
  backend: TraceBackend;
  /** Exports the spans still held, then stops. */
  shutdown: () => Promise<void>;
}

export function startTracingSdk(settings: TracingSettings): StartedTracing {
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, read by the SDK's detectors, come over these.
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'pipes-gateway' })),
    // Scrubbed and encoded for OTLP off the main thread (span-export-worker.ts).
    traceExporter: new WorkerSpanExporter(settings.protocol),
    // Traces only: metrics stay Prometheus's (/metrics) and logs stay lines on stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new FastifyOtelInstrumentation({
        // On the Fastify instance Nest creates, before any route.
        registerOnInitialization: true,
        // One span per request: the hooks and the handler are the request's own work, not hops.
        instrumentHooks: false,
        instrumentHandler: false,
        ignorePaths: (route: { url: string }) => UNTRACED_PATHS.has(pathOf(route.url)),
        requestHook: (span: Span, request: FastifyRequest) => {
          // Named after the route's template (`GET /v1/pipes/:pipeId`), never its ids.
          const route = request.routeOptions.url;
          span.updateName(route === undefined ? request.method : `${request.method} ${route}`);
          (request.raw as TracedRequest)[SERVER_SPAN] = span;
        },
      }),
      new UndiciInstrumentation(),
      // Background work (pollers, sinks, retention) would start a trace per statement or command.
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  const tracer = trace.getTracer('pipes-gateway');
  const backend: TraceBackend = {
    serverSpan: (request) => (request as TracedRequest)[SERVER_SPAN],
    activeSpan: () => trace.getSpan(context.active()),
    inSpan: (name, attributes, work) =>
      tracer.startActiveSpan(name, { attributes }, (span) => work(span).finally(() => span.end())),
    failed: (span: SpanNotes, reason: string) => {
      (span as Span).setStatus({ code: SpanStatusCode.ERROR, message: reason });
    },
  };
  return { backend, shutdown: () => sdk.shutdown() };
}

function pathOf(url: string | undefined): string {
  const query = url?.indexOf('?') ?? -1;
  return query < 0 ? (url ?? '') : url!.slice(0, query);
}
