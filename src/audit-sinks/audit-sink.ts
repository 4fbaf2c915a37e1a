import type { AuditSinksConfig } from '../config/app-config';

export type AuditSinkKind = 'syslog' | 'webhook';

/**
 * One line a sink delivers, already rendered: the same bytes every time it is sent. An audit event
 * is the line the NDJSON export gives for it; `tenantId` and `seq` say where it sits in its chain.
 * A checkpoint is the export's `{"checkpoint": "<JWS>"}` line; its `seq` is the last event it signs.
 */
export interface SinkRecord {
  kind: 'event' | 'checkpoint';
  tenantId: string;
  seq: number;
  at: Date;
  line: string;
}

/** A destination: delivers a batch whole, or throws having left it to be sent again. */
export interface SinkTransport {
  readonly kind: AuditSinkKind;
  /** Where it delivers, without credentials: user-info and query are left out. */
  readonly address: string;
  deliver(records: readonly SinkRecord[]): Promise<void>;
}

/** A delivery that failed; `message` is safe to store and log (it never carries a credential). */
export class SinkDeliveryError extends Error {
  override name = 'SinkDeliveryError';
}

/** The sinks the configuration turns on: retention keeps every event one of them has not delivered. */
export function configuredSinkKinds(config: AuditSinksConfig): AuditSinkKind[] {
  const kinds: AuditSinkKind[] = [];
  if (config.syslog) kinds.push('syslog');
  if (config.webhook) kinds.push('webhook');
  return kinds;
}

/** What went wrong, in words fit for the sink's status: a socket error's code and message only. */
export function deliveryFailure(error: unknown): string {
  if (error instanceof SinkDeliveryError) return error.message;
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
