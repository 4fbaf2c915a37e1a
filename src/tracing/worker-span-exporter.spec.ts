import { join } from 'node:path';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { readableSpan } from '../../test/fixtures/readable-span';
import { finished, launch } from '../../test/support/process';
import { WorkerSpanExporter } from './worker-span-exporter';

const ROOT = join(__dirname, '../..');
const STAND_IN = join(ROOT, 'test/fixtures/span-export-stand-in.js');

function exported(exporter: WorkerSpanExporter, name: string): Promise<ExportResult> {
  // The stand-in worker does as the span's name says.
  return new Promise((resolve) => exporter.export([readableSpan({ name })], resolve));
}

describe('WorkerSpanExporter', () => {
  let exporter: WorkerSpanExporter;
  beforeEach(() => (exporter = new WorkerSpanExporter('http/protobuf', STAND_IN)));
  afterEach(() => exporter.shutdown());

  it("answers each export as its worker does, a failure with the worker's reason", async () => {
    const [done, refused] = await Promise.all([exported(exporter, 'fine'), exported(exporter, 'refuse')]);
    expect(done).toEqual({ code: ExportResultCode.SUCCESS });
    expect(refused.code).toBe(ExportResultCode.FAILED);
    expect(refused.error?.message).toBe('the collector refused');
  });

  it('fails the exports a stopped worker held, and starts another for the next export', async () => {
    const [held, crashed] = await Promise.all([exported(exporter, 'slow'), exported(exporter, 'crash')]);
    for (const result of [held, crashed]) {
      expect(result.code).toBe(ExportResultCode.FAILED);
      expect(result.error?.message).toBe('the span export worker stopped');
    }
    expect(await exported(exporter, 'fine')).toEqual({ code: ExportResultCode.SUCCESS });
  });

  it('holds the process up while an export is owed, and not once its worker is idle', async () => {
    const child = launch('test/fixtures/span-export-owed.ts', [STAND_IN], {});
    // Killed, it would end with no code.
    const stop = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const { code, stdout } = await finished(child).finally(() => clearTimeout(stop));
    expect({ code, stdout }).toEqual({ code: 0, stdout: `exported: ${ExportResultCode.SUCCESS}\n` });
  }, 30_000);
});
