import type { ServerResponse } from 'node:http';
import type { PipeEvent } from './pipe-event';

/** An event as Server-Sent Events text: written once, sent to every subscriber as it is. */
export function eventText(event: PipeEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** Why a stream ended, sent as its last event. */
export type EndReason =
  'credential-revoked' | 'credential-expired' | 'role-withdrawn' | 'lifetime' | 'shutting-down';

/**
 * One open stream: writes go to the socket's buffer, and a reader that lets that buffer pass
 * `maxBufferBytes` is cut off at the next write rather than buffered without bound (it resumes with Last-Event-ID).
 */
export class EventStream {
  private readonly heartbeat: NodeJS.Timeout;
  private readonly lifetime: NodeJS.Timeout;
  private closed = false;
  private writtenThisTurn = 0;

  constructor(
    private readonly response: ServerResponse,
    private readonly maxBufferBytes: number,
    heartbeatMs: number,
    maxLifetimeMs: number,
    private readonly onClose: (dropped: boolean) => void,
  ) {
    this.heartbeat = setInterval(() => this.write(':\n\n'), heartbeatMs);
    this.heartbeat.unref();
    this.lifetime = setTimeout(() => this.end('lifetime'), maxLifetimeMs);
    this.lifetime.unref();
    response.on('close', () => this.closeOnce(false));
  }

  get open(): boolean {
    return !this.closed;
  }

  write(text: string): void {
    if (this.closed) return;
    // What the socket has not taken of earlier turns' writes: past the bound, the reader is not keeping
    // up. A burst written in one turn (a replay, a poll's changes) is not held against it yet.
    if (this.response.writableLength - this.writtenThisTurn > this.maxBufferBytes) {
      this.closeOnce(true);
      this.response.destroy();
      return;
    }
    if (this.writtenThisTurn === 0) setImmediate(() => (this.writtenThisTurn = 0));
    this.writtenThisTurn += Buffer.byteLength(text);
    this.response.write(text);
  }

  /** Says why in a last `stream.end` event, then closes. */
  end(reason: EndReason): void {
    if (this.closed) return;
    this.response.end(`event: stream.end\ndata: ${JSON.stringify({ reason })}\n\n`);
    this.closeOnce(false);
  }

  private closeOnce(dropped: boolean): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.lifetime);
    this.onClose(dropped);
  }
}
