import { hostname } from 'node:os';
import { connect as connectTcp, Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { SinkDeliveryError, SinkRecord, SinkTransport } from './audit-sink';

/** RFC 5424 facility 13 (log audit), severity 6 (informational). */
const PRIORITY = (13 << 3) | 6;
export const SYSLOG_APP_NAME = 'pipes-gateway';
/**
 * The structured data's SD-ID per kind of record (MSGID is the name before the `@`): under private
 * enterprise number 32473, the one RFC 5612 sets aside for examples and documentation (the gateway
 * has no number of its own).
 */
export const SYSLOG_SD_IDS = { event: 'audit@32473', checkpoint: 'checkpoint@32473' } as const;

/** HOSTNAME: this machine's name in printable ASCII, or the NILVALUE. */
const HOSTNAME =
  hostname()
    .replace(/[^\x21-\x7e]/g, '')
    .slice(0, 255) || '-';

/**
 * One record as an RFC 5424 message: TIMESTAMP is the event's (or checkpoint's) own time, MSGID
 * `audit` (or `checkpoint`), the structured data names the tenant and seq, and the message is the
 * export's line for the record. The structured-data values are a uuid and a number, which need no
 * escaping.
 */
export function syslogMessage(record: SinkRecord, host = HOSTNAME): string {
  const sdId = SYSLOG_SD_IDS[record.kind];
  const msgId = sdId.slice(0, sdId.indexOf('@'));
  return (
    `<${PRIORITY}>1 ${record.at.toISOString()} ${host} ${SYSLOG_APP_NAME} - ${msgId} ` +
    `[${sdId} tenantId="${record.tenantId}" seq="${record.seq}"] ${record.line}`
  );
}

/**
 * Messages with octet-counting framing (RFC 6587 3.4.1, RFC 5425 4.3): each one's length in bytes,
 * a space, the message. Written into one buffer sized first, so a batch allocates once.
 */
export function octetCounted(messages: readonly string[]): Buffer {
  const lengths = messages.map((message) => Buffer.byteLength(message));
  const size = lengths.reduce((sum, length) => sum + `${length} `.length + length, 0);
  const framed = Buffer.allocUnsafe(size);
  let offset = 0;
  messages.forEach((message, index) => {
    offset += framed.write(`${lengths[index]} `, offset, 'latin1');
    offset += framed.write(message, offset);
  });
  return framed;
}

/**
 * Syslog over TCP or TLS. Syslog has no acknowledgement, so each batch goes on a connection of its
 * own: the gateway writes the batch, closes its side, and counts it delivered only once the
 * receiver closes too, having read everything before the close. A receiver that goes away sooner
 * leaves the batch to be sent again.
 */
export class SyslogTransport implements SinkTransport {
  readonly kind = 'syslog' as const;
  readonly address: string;
  private readonly host: string;
  private readonly port: number;
  private readonly tls: boolean;

  constructor(
    url: string,
    private readonly ca: string | null,
    private readonly timeoutMs: number,
  ) {
    const parsed = new URL(url);
    this.address = `${parsed.protocol}//${parsed.host}`;
    this.host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = Number(parsed.port);
    this.tls = parsed.protocol === 'tls:';
  }

  deliver(records: readonly SinkRecord[]): Promise<void> {
    const payload = octetCounted(records.map((record) => syslogMessage(record)));
    return new Promise<void>((resolve, reject) => {
      const socket: Socket = this.tls
        ? connectTls({ host: this.host, port: this.port, ...(this.ca ? { ca: this.ca } : {}) })
        : connectTcp({ host: this.host, port: this.port });
      let written = false;
      let peerClosed = false;
      const fail = (message: string) => {
        socket.destroy();
        reject(new SinkDeliveryError(message));
      };
      socket.setTimeout(this.timeoutMs, () =>
        fail(`no close from the syslog receiver within ${this.timeoutMs} ms`),
      );
      socket.once(this.tls ? 'secureConnect' : 'connect', () => socket.end(payload, () => (written = true)));
      // The receiver sends nothing; reading lets its close arrive.
      socket.on('data', () => undefined);
      socket.once('end', () => (peerClosed = true));
      socket.once('error', (error: NodeJS.ErrnoException) =>
        fail(error.code ? `${error.code}: ${error.message}` : error.message),
      );
      socket.once('close', () =>
        written && peerClosed
          ? resolve()
          : reject(new SinkDeliveryError('the syslog receiver closed the connection early')),
      );
    });
  }
}
