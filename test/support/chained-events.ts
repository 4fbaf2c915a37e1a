import type { AuditChange, ChainedEvent, NewAuditEvent } from '../../src/audit/audit-events.repository';

/**
 * An event chained at `seq` on made-up hashes and digests, as the append statement takes it, with
 * `change` to write beside it; `event` holds its tenant and whatever differs from a pipe create.
 */
export function chainedEvent(
  seq: number,
  change: AuditChange | undefined,
  event: Pick<NewAuditEvent, 'tenantId'> & Partial<NewAuditEvent>,
): ChainedEvent {
  return {
    seq,
    hash: `hash-${seq}`,
    digest: `digest-${seq}`,
    prevHash: `hash-${seq - 1}`,
    prevDigest: `digest-${seq - 1}`,
    chainKey: 'v1',
    change,
    event: {
      at: new Date(),
      actor: 'key:test',
      onBehalfOf: null,
      action: 'pipe.create',
      target: `pipe:pipe-${seq}`,
      requestId: `request-${seq}`,
      outcome: 'succeeded',
      httpStatus: 200,
      details: null,
      ...event,
    },
  };
}
