import { SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { ScrubbingExporter } from './scrubbing-exporter';

const SECRET = 'pgw_k3yS3cretValue0123456789';

function span(attributes: Attributes, overrides: Partial<ReadableSpan> = {}): ReadableSpan {
  const context = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 };
  return {
    name: 'GET /v1/pipes/:pipeId',
    kind: SpanKind.SERVER,
    spanContext: () => context,
    startTime: [1, 0],
    endTime: [1, 5],
    status: { code: SpanStatusCode.UNSET },
    attributes,
    links: [],
    events: [],
    duration: [0, 5],
    ended: true,
    resource: resourceFromAttributes({}),
    instrumentationScope: { name: 'test' },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
    ...overrides,
  };
}

function exported(spans: ReadableSpan[]): ReadableSpan[] {
  const received: ReadableSpan[] = [];
  const inner: SpanExporter = {
    export: (batch: ReadableSpan[], done: (result: ExportResult) => void) => {
      received.push(...batch);
      done({ code: ExportResultCode.SUCCESS });
    },
    shutdown: () => Promise.resolve(),
  };
  new ScrubbingExporter(inner).export(spans, () => undefined);
  return received;
}

describe('ScrubbingExporter', () => {
  it('drops query strings and redacts what URLs, statements and errors quote', () => {
    const [scrubbed] = exported([
      span(
        {
          'url.full': `https://reader:${SECRET}@api.example.com/v1/pipes?token=${SECRET}`,
          'url.path': `/v1/echo/Bearer ${SECRET}`,
          'url.query': `token=${SECRET}`,
          'db.statement': `SELECT 1 -- ${SECRET}`,
          'http.response.status_code': 200,
          'gateway.tenant.id': 'b4b8a0c2-0000-4000-8000-000000000000',
        },
        {
          status: { code: SpanStatusCode.ERROR, message: `refused Bearer ${SECRET}` },
          events: [{ name: 'exception', time: [1, 2], attributes: { 'exception.message': `bad ${SECRET}` } }],
        },
      ),
    ]);
    const text = JSON.stringify({ ...scrubbed, spanContext: scrubbed.spanContext() });
    expect(text).not.toContain(SECRET);
    expect(scrubbed.attributes).not.toHaveProperty('url.query');
    expect(scrubbed.attributes['url.full']).toBe('https://reader:[redacted]@api.example.com/v1/pipes');
    expect(scrubbed.attributes['http.response.status_code']).toBe(200);
    expect(scrubbed.attributes['gateway.tenant.id']).toBe('b4b8a0c2-0000-4000-8000-000000000000');
    expect(scrubbed.spanContext().spanId).toBe('00f067aa0ba902b7');
  });

  it('leaves the span it was given as it was', () => {
    const original = span({ 'url.query': 'a=1' });
    exported([original]);
    expect(original.attributes).toEqual({ 'url.query': 'a=1' });
  });
});
