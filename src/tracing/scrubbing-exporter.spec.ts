import { SpanStatusCode } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { readableSpan } from '../../test/fixtures/readable-span';
import { ScrubbingExporter } from './scrubbing-exporter';

const SECRET = 'pgw_k3yS3cretValue0123456789';

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
      readableSpan({
        attributes: {
          'url.full': `https://reader:${SECRET}@api.example.com/v1/pipes?token=${SECRET}`,
          'url.path': `/v1/echo/Bearer ${SECRET}`,
          'url.query': `token=${SECRET}`,
          'db.statement': `SELECT 1 -- ${SECRET}`,
          'http.response.status_code': 200,
          'gateway.tenant.id': 'b4b8a0c2-0000-4000-8000-000000000000',
        },
        status: { code: SpanStatusCode.ERROR, message: `refused Bearer ${SECRET}` },
        events: [{ name: 'exception', time: [1, 2], attributes: { 'exception.message': `bad ${SECRET}` } }],
      }),
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
    const original = readableSpan({ attributes: { 'url.query': 'a=1' } });
    exported([original]);
    expect(original.attributes).toEqual({ 'url.query': 'a=1' });
  });
});
