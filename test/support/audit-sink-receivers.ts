/**
 * What the audit sink tests (and bench:sinks) share: quick settings, waiting, a webhook signature
 * check, and an HTTP collector to deliver to.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const WEBHOOK_SECRET = 'whsec-test-0123456789abcdef0123456789abcdef';
// Quick rounds and retries, small batches: a few dozen events make several deliveries.
export const QUICK = {
  AUDIT_SINK_INTERVAL_MS: '50',
  AUDIT_SINK_BATCH_SIZE: '4',
  AUDIT_SINK_RETRY_MIN_MS: '100',
  AUDIT_SINK_RETRY_MAX_MS: '800',
  AUDIT_SINK_TIMEOUT_MS: '2000',
};
export type Maybe<T> = T | false | undefined;

export async function waitFor<T>(
  what: string,
  probe: () => Maybe<T> | Promise<Maybe<T>>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Checks a request's signature header as a receiver would: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">. */
export function signatureValid(header: string | string[] | undefined, body: string, secret: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(header));
  if (!match || Math.abs(Date.now() / 1000 - Number(match[1])) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2], 'hex'));
}

export interface Delivery {
  tenantId: string;
  seq: number;
  line: string;
}

/** An HTTP collector: answers each request with the next status queued (200 once none is), or holds it. */
export class Collector {
  readonly requests: {
    at: number;
    headers: IncomingMessage['headers'];
    body: string;
    answered: number | 'held';
  }[] = [];
  readonly answers: (number | 'hold')[] = [];
  onRequest: () => void = () => undefined;
  private readonly server: Server;
  private readonly held: ServerResponse[] = [];

  constructor() {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const answer = this.answers.shift() ?? 200;
        this.requests.push({
          at: Date.now(),
          headers: req.headers,
          body,
          answered: answer === 'hold' ? 'held' : answer,
        });
        if (answer === 'hold') this.held.push(res);
        else res.writeHead(answer).end();
        this.onRequest();
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The events delivered (the checkpoint lines between them left out). */
  deliveries(): Delivery[] {
    return this.requests
      .filter((request) => request.answered === 200)
      .flatMap((request) => request.body.split('\n').filter((line) => line !== ''))
      .filter((line) => !line.startsWith('{"checkpoint":'))
      .map((line) => {
        const event = JSON.parse(line) as { tenantId: string; seq: number };
        return { tenantId: event.tenantId, seq: event.seq, line };
      });
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
