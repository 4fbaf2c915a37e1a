import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { SYSLOG_LINE } from '../../test/support/rsyslog';
import type { Receipts } from './receipts';

// Often enough that the time a record is seen is within this of when rsyslog wrote it.
const POLL_MS = 50;

/**
 * Reads what rsyslog writes to its file as it grows, and counts each audit record in `receipts`,
 * timed when it is read. The event's own time is the syslog TIMESTAMP the gateway sends.
 */
export class SyslogTail {
  private offset = 0;
  private partial = '';
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly file: string,
    readonly receipts: Receipts,
  ) {
    this.timer = setInterval(() => this.read(), POLL_MS);
  }

  /** Reads what was written since the last read. */
  read(): void {
    if (!existsSync(this.file)) return;
    const size = statSync(this.file).size;
    if (size <= this.offset) return;
    const buffer = Buffer.alloc(size - this.offset);
    const fd = openSync(this.file, 'r');
    try {
      readSync(fd, buffer, 0, buffer.length, this.offset);
    } finally {
      closeSync(fd);
    }
    this.offset = size;
    const lines = (this.partial + buffer.toString('utf8')).split('\n');
    this.partial = lines.pop() ?? '';
    const receivedAt = Date.now();
    for (const line of lines) {
      const match = SYSLOG_LINE.exec(line);
      if (!match) throw new Error(`rsyslog received something other than an audit record: ${line}`);
      const [, timestamp, , msgId, , tenantId, seq] = match;
      if (msgId === 'checkpoint') this.receipts.checkpoint();
      else this.receipts.event(tenantId, Number(seq), Date.parse(timestamp), receivedAt);
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.read();
  }
}
