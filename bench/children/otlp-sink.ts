import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Message } from '../lib/processes';
import { serveChild } from './child';

/** What the sink has taken so far, when asked (`otlp-tally`). */
export interface OtlpSinkTally extends Message {
  type: 'otlp-tally';
  exports: number;
  bytes: number;
}

/**
 * An OTLP/HTTP receiver that reads every export and keeps nothing: where a traced gateway sends its
 * spans, so that what tracing costs the gateway is measured without a collector's work beside it.
 */
serveChild(async () => {
  const tally: OtlpSinkTally = { type: 'otlp-tally', exports: 0, bytes: 0 };
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (tally.bytes += chunk.length));
    request.on('end', () => {
      tally.exports += 1;
      // What a collector answers: an empty ExportTraceServiceResponse.
      const json = request.headers['content-type']?.startsWith('application/json') ?? false;
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : undefined);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const ready: Message & { url: string } = {
    type: 'ready',
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  };
  return {
    ready,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    handle: () => Promise.resolve({ ...tally }),
  };
});
