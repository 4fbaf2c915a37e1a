import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signatureValid } from '../../test/support/audit-sink-receivers';
import { Receipts } from '../lib/receipts';
import type { Message } from '../lib/processes';
import { serveChild } from './child';

export interface WebhookReceiverReady extends Message {
  type: 'ready';
  url: string;
}

/** Requests to the receiver: down (answer 503) or up again, lag taken from a time on, what it got. */
export type WebhookReceiverRequest =
  | { type: 'receiver-down' | 'receiver-up' | 'lag' | 'since' | 'receipts' }
  | { type: 'measure-lag'; from: number };

/**
 * The audit webhook's receiver for bench:sinks, in a process of its own so that its work does not
 * slow the load generator: it checks each request's signature under the secret it is given
 * (BENCH_WEBHOOK_SECRET) as a collector would, refuses one that fails with 401, and counts the
 * events and checkpoints of those it accepts. While "down" it answers 503 to everything.
 */
serveChild(async () => {
  const secret = process.env.BENCH_WEBHOOK_SECRET!;
  const receipts = new Receipts();
  let down = false;
  let badSignatures = 0;

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (down) return void response.writeHead(503).end();
      const body = Buffer.concat(chunks).toString('utf8');
      if (!signatureValid(request.headers['x-pipes-gateway-signature'], body, secret)) {
        badSignatures += 1;
        return void response.writeHead(401).end();
      }
      const receivedAt = Date.now();
      for (const line of body.split('\n')) {
        if (line === '') continue;
        if (line.startsWith('{"checkpoint":')) {
          receipts.checkpoint();
          continue;
        }
        const event = JSON.parse(line) as { tenantId: string; seq: number; at: string };
        receipts.event(event.tenantId, event.seq, Date.parse(event.at), receivedAt);
      }
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const ready: WebhookReceiverReady = {
    type: 'ready',
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/audit`,
  };
  return {
    ready,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
    handle: (message: Message) => {
      const request = message as WebhookReceiverRequest;
      switch (request.type) {
        case 'receiver-down':
        case 'receiver-up':
          down = request.type === 'receiver-down';
          return Promise.resolve({ type: 'receiver-state' });
        case 'measure-lag':
          receipts.measureLagFrom(request.from);
          return Promise.resolve({ type: 'measuring' });
        case 'lag':
          return Promise.resolve({ type: 'lag', ...receipts.lagSummary() });
        case 'since':
          receipts.since();
          return Promise.resolve({ type: 'since' });
        case 'receipts':
          return Promise.resolve({ type: 'receipts', ...receipts.counts(), badSignatures });
        default:
          return Promise.reject(new Error(`unknown request ${(request as Message).type}`));
      }
    },
  };
});
