/**
 * What the gateway's code says to traces. Every function here is a no-op while tracing is off, and
 * this module loads nothing of OpenTelemetry (its imports are types): the SDK is loaded, and
 * installed here, only when an exporter is configured (start-tracing.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { Attributes, Span } from '@opentelemetry/api';

/** A span's identity, as logs, problem answers and metric exemplars quote it. */
export interface TraceIds {
  traceId: string;
  spanId: string;
  /** Whether the span is recorded and exported (sampled): only those are worth an exemplar. */
  sampled: boolean;
}

/** What the started SDK does for this module (tracing-sdk.ts). */
export interface TraceBackend {
  /** The server span of a request, as the Fastify instrumentation made it; none for unrecorded routes. */
  serverSpan(request: IncomingMessage): Span | undefined;
  activeSpan(): Span | undefined;
  /** Runs `work` in a new child span of the active one, ended when `work` settles. */
  inSpan<T>(name: string, attributes: Attributes, work: (span: SpanNotes) => Promise<T>): Promise<T>;
  /** Marks a span failed, naming what failed in words of the gateway's own, never an error's message. */
  failed(span: SpanNotes, reason: string): void;
}

/** What code may write on a span: attributes of the gateway's own, never a caller's text or a secret. */
export interface SpanNotes {
  setAttribute(key: string, value: string | number | boolean): unknown;
}

/** The attributes the gateway adds (docs/operations.md, "Tracing"). */
export const SPAN_ATTRIBUTES = {
  tenant: 'gateway.tenant.id',
  callerKind: 'gateway.caller.kind',
  cache: 'gateway.pipe_read.cache',
  writeSlot: 'gateway.write_slot',
  upstream: 'gateway.upstream',
  budgetUse: 'gateway.budget.use',
  budgetWaitMs: 'gateway.budget.wait_ms',
  attempts: 'gateway.upstream.attempts',
  auditAction: 'gateway.audit.action',
} as const;

const UNTRACED: SpanNotes = { setAttribute: () => UNTRACED };

let backend: TraceBackend | null = null;

/** Called once, by the SDK's start, before the gateway's modules load. */
export function installTraceBackend(started: TraceBackend): void {
  backend = started;
}

export function tracingOn(): boolean {
  return backend !== null;
}

/** Sets attributes on a request's server span. */
export function noteOnRequest(request: IncomingMessage, attributes: Attributes): void {
  backend?.serverSpan(request)?.setAttributes(attributes);
}

/** Sets an attribute on the span active now (the request's, or a span of the gateway's own). */
export function noteOnActiveSpan(key: string, value: string | number | boolean): void {
  backend?.activeSpan()?.setAttribute(key, value);
}

/** Runs `work` in a span of its own; while tracing is off, just runs it. */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: SpanNotes) => Promise<T>,
): Promise<T> {
  return backend === null ? work(UNTRACED) : backend.inSpan(name, attributes, work);
}

/** Marks a span of `inSpan` failed, for a reason in the gateway's words (a problem type, a refusal). */
export function spanFailed(span: SpanNotes, reason: string): void {
  backend?.failed(span, reason);
}

/** The ids of a request's server span; undefined while tracing is off or for an unrecorded route. */
export function requestTraceIds(request: IncomingMessage): TraceIds | undefined {
  const span = backend?.serverSpan(request);
  return span === undefined ? undefined : idsOf(span);
}

/** The ids of the span active now. */
export function activeTraceIds(): TraceIds | undefined {
  const span = backend?.activeSpan();
  return span === undefined ? undefined : idsOf(span);
}

function idsOf(span: Span): TraceIds {
  const { traceId, spanId, traceFlags } = span.spanContext();
  // W3C trace flags: bit 0 is "sampled".
  return { traceId, spanId, sampled: (traceFlags & 1) === 1 };
}
