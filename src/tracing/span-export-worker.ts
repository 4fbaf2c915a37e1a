/**
 * The span export worker's thread (worker-span-exporter.ts): takes each batch of finished spans
 * from the main thread, scrubs them and exports them over OTLP, so that encoding and sending spans
 * never holds up the gateway's requests. The exporter reads OpenTelemetry's variables itself, from
 * the environment the worker was given (the gateway's).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ScrubbingExporter } from './scrubbing-exporter';
import { readableSpans } from './span-records';
import type { SpanExportRequest, SpanExportWorkerData, SpanExportReply } from './worker-span-exporter';

const { protocol } = workerData as SpanExportWorkerData;
const exporter = new ScrubbingExporter(
  protocol === 'http/json' ? new JsonTraceExporter() : new ProtobufTraceExporter(),
);
const port = parentPort!;

port.on('message', (request: SpanExportRequest) => {
  const reply = (failure?: unknown): void =>
    port.postMessage({
      id: request.id,
      ok: failure === undefined,
      ...(failure === undefined
        ? {}
        : { error: failure instanceof Error ? failure.message : 'export failed' }),
    } satisfies SpanExportReply);
  switch (request.type) {
    case 'export':
      exporter.export(readableSpans(request.batch), (result) =>
        reply(
          result.code === ExportResultCode.SUCCESS ? undefined : (result.error ?? new Error('export failed')),
        ),
      );
      break;
    case 'flush':
      exporter.forceFlush().then(() => reply(), reply);
      break;
    case 'shutdown':
      exporter.shutdown().then(() => reply(), reply);
      break;
  }
});
