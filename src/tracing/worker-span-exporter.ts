import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { type SpanBatch, spanBatch } from './span-records';
import type { OtlpProtocol } from './tracing-settings';

export interface SpanExportWorkerData {
  protocol: OtlpProtocol;
}

type SpanExportAsk = { type: 'export'; batch: SpanBatch } | { type: 'flush' } | { type: 'shutdown' };

export type SpanExportRequest = SpanExportAsk & { id: number };

export interface SpanExportReply {
  id: number;
  ok: boolean;
  error?: string;
}

// Beside this file: compiled, or its source where the gateway runs from source.
const SPAN_EXPORT_WORKER = join(__dirname, `span-export-worker${extname(__filename)}`);

interface RunningWorker {
  worker: Worker;
  waiting: Map<number, (reply: SpanExportReply) => void>;
}

/**
 * Exports spans from a worker thread (span-export-worker.ts): the main thread only copies each
 * batch's spans into a message; scrubbing them, encoding them for OTLP and sending them happen off
 * it, so a batch of hundreds of spans does not stall the requests in flight. A worker that stops
 * fails the exports it held, and the next export starts another.
 */
export class WorkerSpanExporter implements SpanExporter {
  private running: RunningWorker | null = null;
  private lastId = 0;

  constructor(
    private readonly protocol: OtlpProtocol,
    private readonly workerFile: string = SPAN_EXPORT_WORKER,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    void this.ask({ type: 'export', batch: spanBatch(spans) }).then((reply) =>
      resultCallback(
        reply.ok
          ? { code: ExportResultCode.SUCCESS }
          : { code: ExportResultCode.FAILED, error: new Error(reply.error) },
      ),
    );
  }

  async forceFlush(): Promise<void> {
    if (this.running !== null) await this.ask({ type: 'flush' });
  }

  async shutdown(): Promise<void> {
    const running = this.running;
    if (running === null) return;
    await this.ask({ type: 'shutdown' });
    this.running = null;
    await running.worker.terminate();
  }

  private ask(request: SpanExportAsk): Promise<SpanExportReply> {
    const running = this.running ?? this.start();
    const id = ++this.lastId;
    return new Promise((resolve) => {
      // Held only while it owes an answer: an idle worker does not keep the gateway's process up.
      if (running.waiting.size === 0) running.worker.ref();
      running.waiting.set(id, resolve);
      running.worker.postMessage({ ...request, id } satisfies SpanExportRequest);
    });
  }

  private start(): RunningWorker {
    const worker = new Worker(this.workerFile, {
      workerData: { protocol: this.protocol } satisfies SpanExportWorkerData,
    });
    const running: RunningWorker = { worker, waiting: new Map() };
    worker.unref();
    worker.on('message', (reply: SpanExportReply) => {
      const answer = running.waiting.get(reply.id);
      running.waiting.delete(reply.id);
      if (running.waiting.size === 0) worker.unref();
      answer?.(reply);
    });
    let failure = 'the span export worker stopped';
    worker.on('error', (error) => (failure = `the span export worker failed: ${error.message}`));
    worker.on('exit', () => {
      if (this.running === running) this.running = null;
      for (const [id, answer] of running.waiting) answer({ id, ok: false, error: failure });
      running.waiting.clear();
    });
    this.running = running;
    return running;
  }
}
