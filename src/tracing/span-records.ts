/**
 * Finished spans as plain data, to cross from the gateway's main thread to the span export worker
 * (worker-span-exporter.ts): a ReadableSpan holds functions and class instances, which a message
 * between threads cannot carry. The worker builds ReadableSpans again from these, with what the OTLP
 * exporters read of them.
 */
import type { Attributes, HrTime, Link, SpanContext, SpanKind, SpanStatus } from '@opentelemetry/api';
import { type InstrumentationScope, TraceState } from '@opentelemetry/core';
import { type Resource, resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace';

/** A span context; its trace state as the W3C header writes it. */
export interface SpanContextRecord {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
  traceState?: string;
}

export interface ResourceRecord {
  attributes: Attributes;
  schemaUrl?: string;
}

export interface SpanRecord {
  name: string;
  kind: SpanKind;
  context: SpanContextRecord;
  parent?: SpanContextRecord;
  startTime: HrTime;
  endTime: HrTime;
  duration: HrTime;
  status: SpanStatus;
  attributes: Attributes;
  links: (Omit<Link, 'context'> & { context: SpanContextRecord })[];
  events: TimedEvent[];
  ended: boolean;
  /** The index of the span's resource in its batch's `resources`. */
  resource: number;
  scope: InstrumentationScope;
  droppedAttributesCount: number;
  droppedEventsCount: number;
  droppedLinksCount: number;
}

/** One export's spans, with their resources once each (a gateway's spans share one). */
export interface SpanBatch {
  resources: ResourceRecord[];
  spans: SpanRecord[];
}

export function spanBatch(spans: readonly ReadableSpan[]): SpanBatch {
  const resources: ResourceRecord[] = [];
  const indexes = new Map<Resource, number>();
  const records = spans.map((span) => {
    let resource = indexes.get(span.resource);
    if (resource === undefined) {
      resource =
        resources.push({ attributes: span.resource.attributes, schemaUrl: span.resource.schemaUrl }) - 1;
      indexes.set(span.resource, resource);
    }
    return spanRecord(span, resource);
  });
  return { resources, spans: records };
}

function spanRecord(span: ReadableSpan, resource: number): SpanRecord {
  return {
    name: span.name,
    kind: span.kind,
    context: contextRecord(span.spanContext()),
    parent: span.parentSpanContext && contextRecord(span.parentSpanContext),
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    status: span.status,
    attributes: span.attributes,
    links: span.links.map((link) => ({ ...link, context: contextRecord(link.context) })),
    events: span.events,
    ended: span.ended,
    resource,
    scope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

function contextRecord(context: SpanContext): SpanContextRecord {
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    traceFlags: context.traceFlags,
    isRemote: context.isRemote,
    traceState: context.traceState?.serialize(),
  };
}

/** The batch's spans as ReadableSpans again, in the worker. */
export function readableSpans(batch: SpanBatch): ReadableSpan[] {
  const resources = batch.resources.map((resource) =>
    resourceFromAttributes(resource.attributes, { schemaUrl: resource.schemaUrl }),
  );
  return batch.spans.map((record) => {
    const context = spanContext(record.context);
    return {
      name: record.name,
      kind: record.kind,
      spanContext: () => context,
      parentSpanContext: record.parent && spanContext(record.parent),
      startTime: record.startTime,
      endTime: record.endTime,
      duration: record.duration,
      status: record.status,
      attributes: record.attributes,
      links: record.links.map((link) => ({ ...link, context: spanContext(link.context) })),
      events: record.events,
      ended: record.ended,
      resource: resources[record.resource],
      instrumentationScope: record.scope,
      droppedAttributesCount: record.droppedAttributesCount,
      droppedEventsCount: record.droppedEventsCount,
      droppedLinksCount: record.droppedLinksCount,
    };
  });
}

function spanContext(record: SpanContextRecord): SpanContext {
  const { traceState, ...context } = record;
  return traceState === undefined ? context : { ...context, traceState: new TraceState(traceState) };
}
