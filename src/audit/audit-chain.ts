import { canonicalJson, sha256Hex } from '../common/canonical-json';

/** prevHash of a tenant's first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields an audit event's hash covers: everything but the hash itself. */
export interface AuditEventContent {
  tenantId: string;
  seq: number;
  at: Date;
  actor: string;
  onBehalfOf: string | null;
  action: string;
  target: string | null;
  requestId: string;
  outcome: string;
  httpStatus: number | null;
  details: unknown;
  prevHash: string;
}

export function auditEventHash(event: AuditEventContent): string {
  return sha256Hex(
    canonicalJson({
      tenantId: event.tenantId,
      seq: event.seq,
      at: event.at.toISOString(),
      actor: event.actor,
      onBehalfOf: event.onBehalfOf,
      action: event.action,
      target: event.target,
      requestId: event.requestId,
      outcome: event.outcome,
      httpStatus: event.httpStatus,
      details: event.details ?? null,
      prevHash: event.prevHash,
    }),
  );
}
