import { hash } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json';
import type { ChainFault, ChainVerification } from './dto/audit.dto';

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

/**
 * An event's hash input (its canonical JSON, keys sorted at every level) around the two values
 * only the chain row knows when the event is appended: the input is
 * `${before}${prevHash}${between}${seq}${after}`. Postgres completes and hashes it in the append
 * statement itself (AuditService.append). The top level is written out in sorted key order rather
 * than sorted per call: verification hashes millions of events, and audit-chain.spec.ts holds this
 * equal to canonicalJson of the whole event.
 */
export interface HashInputParts {
  before: string;
  between: string;
  after: string;
}

export function hashInputParts(event: Omit<AuditEventContent, 'seq' | 'prevHash'>): HashInputParts {
  return {
    before:
      `{"action":${JSON.stringify(event.action)},"actor":${JSON.stringify(event.actor)}` +
      `,"at":${JSON.stringify(event.at.toISOString())},"details":${canonicalJson(event.details ?? null)}` +
      `,"httpStatus":${JSON.stringify(event.httpStatus)},"onBehalfOf":${JSON.stringify(event.onBehalfOf)}` +
      `,"outcome":${JSON.stringify(event.outcome)},"prevHash":"`,
    between: `","requestId":${JSON.stringify(event.requestId)},"seq":`,
    after: `,"target":${JSON.stringify(event.target)},"tenantId":${JSON.stringify(event.tenantId)}}`,
  };
}

/** SHA-256 (hex) of the event's canonical JSON. */
export function auditEventHash(event: AuditEventContent): string {
  const { before, between, after } = hashInputParts(event);
  return hash('sha256', `${before}${event.prevHash}${between}${event.seq}${after}`, 'hex');
}

/** What the chain links of an event are checked on. */
export interface ChainLink {
  seq: number;
  prevHash: string;
  hash: string;
}

/**
 * An event as verification reads it: Postgres builds the hash input around `details`
 * (readForVerify in audit.service.ts), so that a million rows are not decoded column by column; `details` is
 * the column's JSON text. Null parts mean the row could not be rendered: it fails verification.
 */
export interface VerifyRow extends ChainLink {
  head: string | null;
  details: string | null;
  tail: string | null;
}

/** The hash of a row read for verification; null when the row cannot be what was written. */
export function verifyRowHash(row: VerifyRow): string | null {
  if (row.head === null || row.tail === null) return null;
  try {
    const details = row.details === null ? null : (JSON.parse(row.details) as unknown);
    return hash('sha256', `${row.head}${canonicalJson(details)}${row.tail}`, 'hex');
  } catch {
    return null;
  }
}

/** Where a tenant's chain starts (genesis, or the checkpoint left by pruning) and where it ends. */
export interface ChainBounds {
  startSeq: number;
  startHash: string;
  lastSeq: number;
  lastHash: string;
}

/**
 * Checks a tenant's events fed in seq order, one batch after another, so a chain of any length is
 * verified in constant memory. Stops at the first fault: everything after it is suspect anyway.
 */
export class ChainVerifier {
  private expectedSeq: number;
  private expectedPrevHash: string;
  private checked = 0;
  private fault: { firstBadSeq: number; reason: ChainFault } | null = null;

  constructor(private readonly bounds: ChainBounds) {
    this.expectedSeq = bounds.startSeq;
    this.expectedPrevHash = bounds.startHash;
  }

  /**
   * `computedHash` is the event's hash recomputed from its stored content (null: not computable).
   * False once a fault was found: feeding more events changes nothing.
   */
  check(event: ChainLink, computedHash: string | null): boolean {
    if (this.fault) return false;
    // A gap is reported before the chain link: the event after a deleted one also fails its link,
    // but what is wrong is the absence.
    if (event.seq !== this.expectedSeq)
      this.fault = { firstBadSeq: this.expectedSeq, reason: 'missing event' };
    else if (event.prevHash !== this.expectedPrevHash)
      this.fault = { firstBadSeq: event.seq, reason: 'prevHash mismatch' };
    else if (computedHash !== event.hash) this.fault = { firstBadSeq: event.seq, reason: 'hash mismatch' };
    if (this.fault) return false;
    this.checked += 1;
    this.expectedSeq += 1;
    this.expectedPrevHash = event.hash;
    return true;
  }

  /** The verdict, once every event has been fed; the last event must be the recorded head. */
  result(): ChainVerification {
    if (this.fault) return { ok: false, checked: this.checked, ...this.fault };
    const lastChecked = this.expectedSeq - 1;
    const { lastSeq, lastHash } = this.bounds;
    if (lastChecked !== lastSeq || this.expectedPrevHash !== lastHash) {
      // Fewer events than the head records: the first absent one. More: the first past the head.
      const firstBadSeq =
        lastChecked < lastSeq ? lastChecked + 1 : lastChecked > lastSeq ? lastSeq + 1 : lastSeq;
      return { ok: false, checked: this.checked, firstBadSeq, reason: 'head mismatch' };
    }
    return { ok: true, checked: this.checked, lastSeq, lastHash };
  }
}
