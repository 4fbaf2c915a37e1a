import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { SinkDeliveryError, SinkRecord, SinkTransport, deliveryFailure } from './audit-sink';

export const SIGNATURE_HEADER = 'x-pipes-gateway-signature';

/**
 * The signature header of a request body sent at `unixSeconds`: `t=<unix seconds>,v1=<hex HMAC-SHA256
 * of "<t>.<body>">` under the webhook secret. The time is signed too, so a receiver can refuse an
 * old request replayed.
 */
export function webhookSignature(secret: string, unixSeconds: number, body: string | Buffer): string {
  // The body hashed as it is sent, not copied onto the time first.
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.`).update(body).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/**
 * An HTTPS collector: each batch is one POST of NDJSON, the export's line for each event and
 * checkpoint, signed. Any 2xx answer delivers it; anything else, or no answer in time, leaves it to
 * be sent again.
 */
export class WebhookTransport implements SinkTransport {
  readonly kind = 'webhook' as const;
  readonly address: string;
  private readonly target: string;
  private readonly authorization: string | null;

  constructor(
    url: string,
    private readonly secret: string,
    private readonly timeoutMs: number,
  ) {
    const parsed = new URL(url);
    // User-info becomes Basic credentials: a request URL may not carry them.
    this.authorization =
      parsed.username || parsed.password
        ? `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}`
        : null;
    parsed.username = '';
    parsed.password = '';
    this.target = parsed.toString();
    this.address = `${parsed.origin}${parsed.pathname}`;
  }

  async deliver(records: readonly SinkRecord[]): Promise<void> {
    // Encoded once, for the signature and the request alike.
    const body = Buffer.from(records.map((record) => `${record.line}\n`).join(''));
    const headers: Record<string, string> = {
      'content-type': 'application/x-ndjson',
      [SIGNATURE_HEADER]: webhookSignature(this.secret, Math.floor(Date.now() / 1000), body),
    };
    if (this.authorization) headers.authorization = this.authorization;
    let status: number;
    try {
      const answer = await request(this.target, {
        method: 'POST',
        headers,
        body,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = answer.statusCode;
      await answer.body.dump();
    } catch (error) {
      throw new SinkDeliveryError(`no answer from the webhook receiver: ${deliveryFailure(error)}`);
    }
    if (status < 200 || status >= 300) {
      throw new SinkDeliveryError(`the webhook receiver answered HTTP ${status}`);
    }
  }
}
