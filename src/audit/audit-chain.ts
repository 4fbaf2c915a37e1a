import { hash } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { canonicalJson } from '../common/canonical-json';
import type { ChainAnchorStatus, ChainFault, ChainVerification } from './dto/audit.dto';

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
 * An event's hash input: its canonical JSON (keys sorted at every level), prevHash and seq
 * included. The top level is written out in sorted key order rather than sorted per call:
 * verification hashes millions of events. audit-chain.spec.ts holds this equal to canonicalJson of
 * the whole event, and test/audit-hash-input.e2e-spec.ts to what verification renders in SQL
 * (readForVerify in audit.service.ts); prevHash, always a hex digest there, is written as it is.
 */
export function hashInput(event: AuditEventContent): string {
  const [before, after] = contentAround(event);
  return `${before},"prevHash":"${event.prevHash}"${after}`;
}

/**
 * An event's digest: SHA-256 (hex) of its canonical form for the public chain, which is the hash
 * input with `prevDigest`, the digest of the event before, in place of `prevHash` (the key sorts to
 * the same place). docs/security.md defines it for reimplementers.
 */
export function auditEventDigest(event: Omit<AuditEventContent, 'prevHash'>, prevDigest: string): string {
  return hash('sha256', chainInputs(event, '', prevDigest).digestInput!, 'hex');
}

/**
 * Both inputs of an event being appended, its content rendered once: appends are a measured path.
 * `prevDigest` null (the head's digest is not computed yet) gives no digest input.
 */
export function chainInputs(
  event: Omit<AuditEventContent, 'prevHash'>,
  prevHash: string,
  prevDigest: string | null,
): { hashInput: string; digestInput: string | null } {
  const [before, after] = contentAround(event);
  return {
    hashInput: `${before},"prevHash":"${prevHash}"${after}`,
    digestInput: prevDigest === null ? null : `${before},"prevDigest":"${prevDigest}"${after}`,
  };
}

// The canonical JSON of the content before and after the link (prevHash or prevDigest), which
// sorts between outcome and requestId.
function contentAround(event: Omit<AuditEventContent, 'prevHash'>): [string, string] {
  return [
    `{"action":${JSON.stringify(event.action)},"actor":${JSON.stringify(event.actor)}` +
      `,"at":${JSON.stringify(event.at.toISOString())},"details":${canonicalJson(event.details ?? null)}` +
      `,"httpStatus":${JSON.stringify(event.httpStatus)},"onBehalfOf":${JSON.stringify(event.onBehalfOf)}` +
      `,"outcome":${JSON.stringify(event.outcome)}`,
    `,"requestId":${JSON.stringify(event.requestId)},"seq":${event.seq}` +
      `,"target":${JSON.stringify(event.target)},"tenantId":${JSON.stringify(event.tenantId)}}`,
  ];
}

/** The keys of the chain, as far as hashing needs them (AuditChainKeys). */
export interface ChainMac {
  mac(version: string, text: string): string | null;
}

/**
 * What an event's hash input chains to: HMAC-SHA-256 under the chain key version it was chained
 * with, or, for a legacy event (`chainKey` null, chained before keyed chaining), plain SHA-256.
 * Null for a key version this gateway does not have.
 */
export function chainHash(keys: ChainMac, chainKey: string | null, input: string): string | null {
  return chainKey === null ? hash('sha256', input, 'hex') : keys.mac(chainKey, input);
}

/** An event's hash (see chainHash); null when it cannot be computed. */
export function auditEventHash(
  event: AuditEventContent,
  keys: ChainMac,
  chainKey: string | null,
): string | null {
  return chainHash(keys, chainKey, hashInput(event));
}

/** What the chain links of an event are checked on. */
export interface ChainLink {
  seq: number;
  prevHash: string;
  hash: string;
  /** The chain key version it was chained with; null for a legacy (plain SHA-256) event. */
  chainKey: string | null;
}

/**
 * An event as verification reads it: Postgres renders the hash input around `details` and the
 * link (readForVerify in audit-events.repository.ts), so that a million rows are not decoded
 * column by column; `details` is the column's JSON text. Null parts mean the row could not be
 * rendered: it fails verification.
 */
export interface VerifyRow extends ChainLink, DigestLink {
  head: string | null;
  details: string | null;
  /** From httpStatus to outcome: what comes between details and the link. */
  middle: string | null;
  /** From requestId on: what follows the link. */
  tail: string | null;
}

/** The public chain's links of an event, as stored (null before they were computed). */
export interface DigestLink {
  seq: number;
  prevDigest: string | null;
  digest: string | null;
}

/**
 * A row read for verification rendered as its canonical JSON around a link (prevHash or
 * prevDigest); null when the row cannot be what was written.
 */
export function rowContent(row: VerifyRow): ((link: string, value: string) => string) | null {
  if (row.head === null || row.middle === null || row.tail === null) return null;
  let details: string;
  try {
    details = canonicalJson(row.details === null ? null : (JSON.parse(row.details) as unknown));
  } catch {
    return null;
  }
  return (link, value) => `${row.head}${details}${row.middle},"${link}":"${value}"${row.tail}`;
}

/** The hash and the digest of a row read for verification; null where they cannot be computed. */
export function verifyRowHashes(
  row: VerifyRow,
  keys: ChainMac,
): { hash: string | null; digest: string | null } {
  const content = rowContent(row);
  if (content === null) return { hash: null, digest: null };
  return {
    hash: chainHash(keys, row.chainKey, content('prevHash', row.prevHash)),
    digest: row.prevDigest === null ? null : hash('sha256', content('prevDigest', row.prevDigest), 'hex'),
  };
}

/**
 * Rows hashed between two turns of the event loop: a verification's hashing would otherwise hold
 * every other request on its replica for a whole batch at a time.
 */
export const VERIFY_SLICE = 250;

/**
 * Checks `rows` in order, VERIFY_SLICE at a time, letting other work run before each slice;
 * false at the first row `check` fails, and no row after it is checked.
 */
export async function checkInSlices<Row>(rows: Row[], check: (row: Row) => boolean): Promise<boolean> {
  for (let from = 0; from < rows.length; from += VERIFY_SLICE) {
    await setImmediate();
    const to = Math.min(from + VERIFY_SLICE, rows.length);
    for (let index = from; index < to; index++) if (!check(rows[index])) return false;
  }
  return true;
}

/**
 * Checks the public chain of a tenant's events fed in seq order, beside ChainVerifier (which
 * finds gaps and the chain's ends): each stored digest must be what the event and the digest
 * before it give. A chain pruned by retention starts at its first kept event's prevDigest.
 */
export class DigestVerifier {
  private expectedPrevDigest: string | null;
  private fault: number | null = null;

  /** `startDigest`: the digest the first event must chain on, when known (a signed checkpoint's). */
  constructor(startSeq: number, startDigest: string | null = startSeq === 1 ? GENESIS_HASH : null) {
    this.expectedPrevDigest = startDigest;
  }

  /** The first seq whose digest is wrong or missing; null while none is. */
  get firstBadSeq(): number | null {
    return this.fault;
  }

  check(event: DigestLink, computedDigest: string | null): void {
    if (this.fault !== null) return;
    const expected = this.expectedPrevDigest ?? event.prevDigest;
    if (event.digest === null || event.prevDigest !== expected || computedDigest !== event.digest)
      this.fault = event.seq;
    else this.expectedPrevDigest = event.digest;
  }
}

/** Where a tenant's chain starts (genesis, or the checkpoint left by pruning) and where it ends. */
export interface ChainBounds {
  startSeq: number;
  startHash: string;
  lastSeq: number;
  lastHash: string;
}

/** A point of the chain kept outside the database (a signed checkpoint): the chain must still pass it. */
export interface ChainAnchor {
  seq: number;
  hash: string;
}

/**
 * Checks a tenant's events fed in seq order, one batch after another, so a chain of any length is
 * verified in constant memory. Stops at the first fault: everything after it is suspect anyway.
 *
 * `anchor` is a checkpoint the caller kept; `legacyEnd` the last event chained before keyed
 * chaining, as the gateway signed it when it first recorded it. Unkeyed (legacy) events are
 * accepted up to `legacyEnd` only, and the chain must pass through it like through a checkpoint,
 * so neither the legacy prefix nor where it ends can be moved without the chain key.
 */
export class ChainVerifier {
  private expectedSeq: number;
  private expectedPrevHash: string;
  private checked = 0;
  private legacyEvents = 0;
  private fault: { firstBadSeq: number; reason: ChainFault } | null = null;
  // Each signed point the chain must pass, and whether it did (null: not yet).
  private readonly passes = new Map<ChainAnchor, ChainAnchorStatus | null>();

  constructor(
    private readonly bounds: ChainBounds,
    private readonly anchor: ChainAnchor | null = null,
    private readonly legacyEnd: ChainAnchor | null = null,
  ) {
    this.expectedSeq = bounds.startSeq;
    this.expectedPrevHash = bounds.startHash;
    for (const point of [anchor, legacyEnd]) {
      if (point === null) continue;
      let status: ChainAnchorStatus | null = null;
      if (point.seq < bounds.startSeq) {
        // Pruned past the point: only one right before the start can still be compared.
        if (point.seq < bounds.startSeq - 1) status = 'pruned';
        else if (point.hash === bounds.startHash) status = 'reached';
        else this.fault ??= { firstBadSeq: bounds.startSeq, reason: 'checkpoint mismatch' };
      }
      this.passes.set(point, status);
    }
  }

  /**
   * `computedHash` is the event's hash recomputed from its stored content (null: not computable).
   * False once a fault was found: feeding more events changes nothing.
   */
  check(event: ChainLink, computedHash: string | null): boolean {
    if (this.fault) return false;
    const { legacyEnd } = this;
    // A gap is reported before the chain link: the event after a deleted one also fails its link,
    // but what is wrong is the absence.
    if (event.seq !== this.expectedSeq)
      this.fault = { firstBadSeq: this.expectedSeq, reason: 'missing event' };
    else if (event.prevHash !== this.expectedPrevHash)
      this.fault = { firstBadSeq: event.seq, reason: 'prevHash mismatch' };
    // Past the signed legacy end (or with none), an unkeyed event was written without the key.
    else if (event.chainKey === null && (legacyEnd === null || event.seq > legacyEnd.seq))
      this.fault = { firstBadSeq: event.seq, reason: 'unkeyed event' };
    else if (computedHash !== event.hash) this.fault = { firstBadSeq: event.seq, reason: 'hash mismatch' };
    else {
      for (const point of this.passes.keys()) {
        if (point.seq !== event.seq) continue;
        if (point.hash !== event.hash) this.fault = { firstBadSeq: event.seq, reason: 'checkpoint mismatch' };
        else this.passes.set(point, 'reached');
      }
    }
    if (this.fault) return false;
    if (event.chainKey === null) this.legacyEvents += 1;
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
    // The chain ends before a signed point: events that were there when it was signed are gone.
    if ([...this.passes.values()].includes(null)) {
      return { ok: false, checked: this.checked, firstBadSeq: lastSeq + 1, reason: 'truncated' };
    }
    const anchorStatus = this.anchor && this.passes.get(this.anchor);
    return {
      ok: true,
      checked: this.checked,
      lastSeq,
      lastHash,
      legacyEvents: this.legacyEvents,
      ...(this.anchor && anchorStatus ? { checkpoint: { seq: this.anchor.seq, status: anchorStatus } } : {}),
    };
  }
}
