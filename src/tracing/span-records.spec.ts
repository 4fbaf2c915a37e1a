import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { readableSpans, spanBatch } from './span-records';

/** Spans as the SDK finishes them: a remote parent with trace state, a link, an event, a failure. */
async function finishedSpans(): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes(
      { 'service.name': 'pipes-gateway', 'service.instance.id': 'a1' },
      {
        schemaUrl: 'https://opentelemetry.io/schemas/1.30.0',
      },
    ),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer('pipes-gateway', '1.2.3', { schemaUrl: 'https://example.test/schema' });
  const caller = trace.setSpanContext(context.active(), {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    traceFlags: 1,
    isRemote: true,
    traceState: new TraceState('frontend=t61rcWkgMzE,other=1'),
  });
  const server = tracer.startSpan(
    'GET /v1/pipes/:pipeId',
    {
      kind: SpanKind.SERVER,
      attributes: { 'http.route': '/v1/pipes/:pipeId', 'http.response.status_code': 200, retried: false },
      links: [
        {
          context: {
            traceId: 'a'.repeat(32),
            spanId: 'b'.repeat(16),
            traceFlags: 0,
            traceState: new TraceState('k=v'),
          },
          attributes: { why: 'batch' },
        },
      ],
    },
    caller,
  );
  server.addEvent('answered', { 'gateway.cache': 'miss', sizes: [1, 2, 3] });
  const child = tracer.startSpan('pipes API call', { kind: SpanKind.CLIENT }, trace.setSpan(caller, server));
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream-unavailable' });
  child.end();
  server.end();
  await provider.forceFlush();
  return exporter.getFinishedSpans();
}

/** What an OTLP exporter reads of a span. */
function asExported(span: ReadableSpan): unknown {
  const { traceState, ...spanContext } = span.spanContext();
  const parent = span.parentSpanContext;
  return {
    name: span.name,
    kind: span.kind,
    spanContext: { ...spanContext, traceState: traceState?.serialize() },
    parent: parent && { ...parent, traceState: parent.traceState?.serialize() },
    times: [span.startTime, span.endTime, span.duration, span.ended],
    status: span.status,
    attributes: span.attributes,
    links: span.links.map((link) => ({
      ...link,
      context: { ...link.context, traceState: link.context.traceState?.serialize() },
    })),
    events: span.events,
    resource: [span.resource.attributes, span.resource.schemaUrl],
    scope: span.instrumentationScope,
    dropped: [span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount],
  };
}

describe('span records', () => {
  it('carry a batch across threads with everything an OTLP exporter reads of its spans', async () => {
    const spans = await finishedSpans();
    // The copy a message between threads makes.
    const carried = readableSpans(structuredClone(spanBatch(spans)));

    expect(carried.map(asExported)).toEqual(spans.map(asExported));
    expect(carried[1].spanContext().traceState?.get('frontend')).toBe('t61rcWkgMzE');
  });

  it('send a resource the spans share once, and rebuild it once', async () => {
    const batch = spanBatch(await finishedSpans());
    expect(batch.resources).toHaveLength(1);
    const [first, second] = readableSpans(structuredClone(batch));
    expect(first.resource).toBe(second.resource);
  });
});
