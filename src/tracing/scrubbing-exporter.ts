import type { Attributes } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter, TimedEvent } from '@opentelemetry/sdk-trace';
import { redactText } from '../redaction/redact';

// Query strings are callers' and upstreams' text, which the logs leave out too.
const DROPPED = new Set(['url.query', 'http.request.header.authorization']);
const URLS = new Set(['url.full', 'url.path', 'url.original', 'http.url', 'http.target']);
// Attributes holding text the gateway did not write: a statement, a client's name, an error's words.
const TEXTS = new Set([
  'db.statement',
  'db.query.text',
  'user_agent.original',
  'http.user_agent',
  'exception.message',
  'exception.stacktrace',
]);

/**
 * Hands spans on to `exporter` with what could hold a secret taken out, under the redaction that
 * guards the logs (docs/security.md): URLs lose their query and are redacted (a user-info, a
 * token in a path), as are statements, user agents, error messages and status messages. The
 * instrumentations record no header and no body, and the gateway's own attributes hold ids and
 * words of its own; this is the last check before a span leaves the process.
 */
export class ScrubbingExporter implements SpanExporter {
  constructor(private readonly exporter: SpanExporter) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.exporter.export(spans.map(scrubbedSpan), resultCallback);
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.exporter.forceFlush?.() ?? Promise.resolve();
  }
}

export function scrubbedSpan(span: ReadableSpan): ReadableSpan {
  const context = span.spanContext();
  return {
    name: redactText(span.name),
    kind: span.kind,
    spanContext: () => context,
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status:
      span.status.message === undefined
        ? span.status
        : { ...span.status, message: redactText(span.status.message) },
    attributes: scrubbedAttributes(span.attributes),
    links: span.links,
    events: span.events.map(scrubbedEvent),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

function scrubbedEvent(event: TimedEvent): TimedEvent {
  return event.attributes === undefined
    ? event
    : { ...event, attributes: scrubbedAttributes(event.attributes) };
}

export function scrubbedAttributes(attributes: Attributes): Attributes {
  const scrubbed: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (DROPPED.has(key)) continue;
    if (typeof value !== 'string') scrubbed[key] = value;
    else if (URLS.has(key)) scrubbed[key] = redactText(withoutQuery(value));
    else if (TEXTS.has(key)) scrubbed[key] = redactText(value);
    else scrubbed[key] = value;
  }
  return scrubbed;
}

function withoutQuery(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
