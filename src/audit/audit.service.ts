import { Injectable, Logger, Optional } from '@nestjs/common';
import { Readable } from 'node:stream';
import { AuditEvent, Prisma } from '../generated/prisma/client';
import type { Actor } from '../auth/principal';
import { KeyedBatcher, WaitTimeoutError } from '../common/batcher';
import { wellFormedJson } from '../common/json-body';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { validationProblem } from '../common/problem/validation';
import { databaseUnavailable, databaseUnavailableProblem } from '../database/database-errors';
import { AuditChainKeys } from '../crypto/audit-chain-keys';
import { PrismaService } from '../database/prisma.service';
import { WriteTransactions } from '../database/write-transactions';
import type { PrismaTx } from '../database/prisma.service';
export type { AppendedEvent, AuditChange, SqlRunner, TableWrite } from './audit-events.repository';
import { MetricsService } from '../metrics/metrics.service';
import { redactSecrets } from '../redaction/redact';
import { inSpan, SPAN_ATTRIBUTES } from '../tracing/tracing';
import {
  ChainAnchor,
  ChainBounds,
  chainInputs,
  VerifyRow,
  ChainVerifier,
  DigestVerifier,
  GENESIS_HASH,
  verifyRowHashes,
  checkInSlices,
} from './audit-chain';
import {
  AppendedEvent,
  AuditChange,
  AuditEventsRepository,
  ChainedEvent,
  ChainHead,
  NewAuditEvent,
  SqlRunner,
  VERIFY_BATCH,
} from './audit-events.repository';
import { genuineLegacyEnd } from './audit-checkpoint';
import type {
  AuditEventView,
  AuditFilterDto,
  AuditOutcome,
  AuditQueryDto,
  ChainVerification,
} from './dto/audit.dto';
import { viewOf } from '../common/views';
import { sha256Hex } from '../common/canonical-json';
import { actionsMatching, type AuditAction } from './audit-actions';

/** The filters as the log is searched: `actors` are the actors an `actor` filter was found to name. */
export type AuditFilter = Omit<AuditFilterDto, 'actor'> & { actors?: readonly string[] };
export type AuditQuery = AuditFilter & Pick<AuditQueryDto, 'cursor' | 'limit'>;

export interface AuditEntry {
  tenantId: string;
  action: AuditAction;
  target?: string | null;
  outcome: AuditOutcome;
  httpStatus?: number | null;
  details?: Record<string, unknown>;
}

// Verification reads the whole chain in one snapshot; a million events take seconds, not minutes.
const VERIFY_TIMEOUT_MS = 5 * 60_000;

/**
 * Each append chains on the head the one before it left. Two sent at once may reach Postgres in
 * either order, and the one that finds another head than it chained on must be redone under the
 * chain row's lock (a transaction of four statements); sessions waiting on that row also cost
 * Postgres CPU and hold pooled connections. So this process sends one append per tenant at a time;
 * appends that arrive meanwhile wait here and go together, in one statement and one commit.
 */
const APPENDS_IN_FLIGHT_PER_TENANT = 1;
// Bounds the statement's size: a batch's events and their writes are planned and run together.
const MAX_APPENDS_PER_STATEMENT = 32;
// As long as a request may wait for a pooled connection (database-connection.ts): the same 503 after it.
const APPEND_MAX_WAIT_MS = 5_000;
const EMPTY_CHAIN: ChainBounds = { startSeq: 1, startHash: GENESIS_HASH, lastSeq: 0, lastHash: GENESIS_HASH };

/**
 * Appends to a tenant's chain, and reads it back for review, export and verification.
 * Appenders pass their own transaction (WriteTransactions) so the event commits with the change it
 * records, or neither does.
 *
 * Each event's hash is an HMAC under the active AUDIT_CHAIN_KEYS key, computed here: the key never
 * reaches the database. So the gateway must know the head it chains on. It remembers, per tenant,
 * the head its last append left, and writes on the condition that the head is still that one; when
 * it is not (another replica appended, an append failed), it reads the head under the chain row's
 * lock and writes in the same transaction.
 */
@Injectable()
export class AuditService {
  private readonly logger = new Logger(AuditService.name);
  private readonly appends = new KeyedBatcher<string, PendingAppend, AppendedEvent>({
    inFlightPerKey: APPENDS_IN_FLIGHT_PER_TENANT,
    maxBatch: MAX_APPENDS_PER_STATEMENT,
    maxWaitMs: APPEND_MAX_WAIT_MS,
    run: (tenantId, appends) => this.appendToChain(this.prisma, tenantId, appends),
    // A failed statement wrote nothing; run alone, the appends whose own writes were fine succeed.
    retryAlone: (error) => databaseUnavailableProblem(error) === null,
  });
  // The head each tenant's chain has after this process's latest append, as far as it knows.
  private readonly heads = new Map<string, ChainHead>();

  // No metrics in the CLI, which has no HTTP layer to serve them.
  constructor(
    private readonly prisma: PrismaService,
    private readonly events: AuditEventsRepository,
    private readonly writes: WriteTransactions,
    private readonly chainKeys: AuditChainKeys,
    @Optional() metrics?: MetricsService,
  ) {
    metrics?.countQueuedAppends(() => this.appends.queued);
  }

  /**
   * Appends `entry` to its tenant's chain. `db` is a transaction the event must commit with, or the
   * client itself: the append is one statement, so alone it needs no transaction. `change` is the
   * writes (TableWrite) that must commit with the event or not at all, run in the same statement,
   * so that they happen exactly when the event is written.
   */
  append(db: SqlRunner, actor: Actor, entry: AuditEntry, change?: AuditChange): Promise<AppendedEvent> {
    // Its span covers the wait for the tenant's turn at its chain as well as the statement.
    return inSpan('audit append', { [SPAN_ATTRIBUTES.auditAction]: entry.action }, () =>
      this.appendEvent(db, actor, entry, change),
    );
  }

  private async appendEvent(
    db: SqlRunner,
    actor: Actor,
    entry: AuditEntry,
    change?: AuditChange,
  ): Promise<AppendedEvent> {
    const event = {
      tenantId: entry.tenantId,
      at: new Date(),
      actor: actor.actor,
      onBehalfOf: actor.onBehalfOf,
      action: entry.action,
      target: entry.target ?? null,
      requestId: actor.requestId,
      outcome: entry.outcome,
      httpStatus: entry.httpStatus ?? null,
      details: detailsOf(entry, actor),
    };
    // Not batched inside a transaction: it may hold the chain row already, and waiting here for an
    // append that waits on that row would never end.
    if (db !== this.prisma) return (await this.appendToChain(db, entry.tenantId, [{ event, change }]))[0];
    try {
      return await this.appends.submit(entry.tenantId, { event, change });
    } catch (error) {
      throw error instanceof WaitTimeoutError ? databaseUnavailable() : error;
    }
  }

  /** For events that accompany no other write (e.g. a credential refused upstream). */
  async record(actor: Actor, entry: AuditEntry): Promise<void> {
    await this.append(this.prisma, actor, entry);
  }

  /** One page, newest first; the cursor is the position after the page's oldest event. */
  async list(tenantId: string, query: AuditQuery): Promise<Page<AuditEventView>> {
    const limit = query.limit ?? 50;
    const before = cursorSeq(query.cursor);
    const rows = await this.events.page(filterWhere(tenantId, query), before, limit + 1);
    return toPage(rows, limit, (row) => ({ at: row.at.toISOString(), id: String(row.seq) }), toView);
  }

  /**
   * Every matching event as NDJSON in seq order, read in batches as the client consumes them.
   * It covers the log as it stood when the export began, so appends cannot stretch a download.
   * `end` gives the line that closes it, from its last event (with a digest).
   */
  async exportNdjson(tenantId: string, filter: AuditFilter, end?: ExportEnd): Promise<Readable> {
    const lastSeq = await this.events.lastSeq(tenantId);
    const batches = this.events.exportBatches({ ...filterWhere(tenantId, filter), seq: { lte: lastSeq } });
    // Read before answering: a database failure now is still a proper problem, not a cut stream.
    const first = await batches.next();
    return Readable.from(this.ndjson(tenantId, first, batches, end), { objectMode: false });
  }

  /**
   * Recomputes the chain from its start (genesis, or the checkpoint pruning left) to its recorded
   * head, in one snapshot so concurrent appends and pruning cannot cause a false alarm. With an
   * `anchor` (a kept checkpoint the caller proved genuine), the chain must still pass through it.
   * With `since` (the seq and digest of a checkpoint whose signature the caller checked), only the
   * events after it are recomputed: the event at its seq must still carry the digest signed, and
   * the chain goes on from that event, so the cost is that of the events since, whatever the log's
   * size. Unkeyed events count only up to the legacy end the chain row records, if genuine (legacy-ends.ts).
   */
  async verify(
    tenantId: string,
    anchor: ChainAnchor | null = null,
    since: SignedPoint | null = null,
  ): Promise<ChainVerification> {
    const result = await this.prisma.$transaction(
      async (tx) => {
        const chain = await this.events.chain(tx, tenantId);
        const bounds = chain ?? EMPTY_CHAIN;
        const start = await this.verificationStart(tx, tenantId, bounds, since);
        if ('ok' in start) return start;
        const legacyEnd = chain && genuineLegacyEnd(this.chainKeys, tenantId, chain);
        const verifier = new ChainVerifier({ ...bounds, ...start }, anchor, legacyEnd);
        const digests = new DigestVerifier(start.startSeq, start.startDigest);
        const check = (row: VerifyRow) => {
          const { hash, digest } = verifyRowHashes(row, this.chainKeys);
          digests.check(row, digest);
          return verifier.check(row, hash);
        };
        // then() starts the query now: Prisma runs a query only once something awaits it.
        const read = (after: number) => this.events.readForVerify(tx, tenantId, after).then((rows) => rows);
        for (let next = read(start.startSeq - 1); ;) {
          const batch = await next;
          const more = batch.length === VERIFY_BATCH;
          // Postgres renders the next batch while this one is hashed.
          if (more) next = read(batch[batch.length - 1].seq);
          if (!(await checkInSlices(batch, check)) || !more) break;
        }
        const verdict = withDigestFault(verifier.result(), digests.firstBadSeq, start.startSeq);
        return since && start.startSeq > bounds.startSeq && verdict.ok
          ? { ...verdict, checkpoint: { seq: since.seq, status: 'reached' as const } }
          : verdict;
      },
      { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, timeout: VERIFY_TIMEOUT_MS },
    );
    if (!result.ok) this.logger.warn({ tenantId, ...result }, 'audit chain verification failed');
    return result;
  }

  /**
   * Where verification starts: the chain's start, whose moving retention must have declared, or
   * the event after `since` when the chain still passes through it there; a fault otherwise.
   */
  private async verificationStart(
    tx: PrismaTx,
    tenantId: string,
    bounds: ChainBounds,
    since: SignedPoint | null,
  ): Promise<{ startSeq: number; startHash: string; startDigest: string | null } | ChainVerification> {
    // A checkpoint retention pruned past leaves the chain's own start to verify from.
    if (since && since.seq >= bounds.startSeq) {
      if (since.seq > bounds.lastSeq) {
        return { ok: false, checked: 0, firstBadSeq: bounds.lastSeq + 1, reason: 'truncated' };
      }
      const signed = await this.events.linkAt(tx, tenantId, since.seq);
      if (signed?.digest !== since.digest) {
        return { ok: false, checked: 0, firstBadSeq: since.seq, reason: 'checkpoint mismatch' };
      }
      return { startSeq: since.seq + 1, startHash: signed.hash, startDigest: since.digest };
    }
    // A later start than genesis is retention's, and its audit.prune event says so.
    if (bounds.startSeq > 1 && (await this.events.declaredStart(tx, tenantId)) !== bounds.startSeq) {
      return { ok: false, checked: 0, firstBadSeq: bounds.startSeq, reason: 'undeclared start' };
    }
    return {
      startSeq: bounds.startSeq,
      startHash: bounds.startHash,
      startDigest: bounds.startSeq === 1 ? GENESIS_HASH : null,
    };
  }

  /**
   * Appends events of one tenant in order on the head this process last left, on the condition
   * that it is still the head; else under the chain row's lock.
   */
  private async appendToChain(
    db: SqlRunner,
    tenantId: string,
    appends: PendingAppend[],
  ): Promise<AppendedEvent[]> {
    const head = this.heads.get(tenantId) ?? (await this.events.readHead(db, tenantId));
    const events = this.chainedAfter(head, appends);
    // The next batch may chain on these before they commit; if they do not, it will not match.
    this.heads.set(tenantId, events[events.length - 1]);
    try {
      if (await this.events.writeEvents(db, tenantId, head, events))
        return events.map(({ seq, hash }) => ({ seq, hash }));
    } catch (error) {
      this.heads.delete(tenantId);
      throw error;
    }
    this.heads.delete(tenantId);
    return this.appendUnderLock(db, tenantId, appends);
  }

  /** The fallback: read the head with the chain row locked, then write in the same transaction. */
  private async appendUnderLock(
    db: SqlRunner,
    tenantId: string,
    appends: PendingAppend[],
  ): Promise<AppendedEvent[]> {
    const run = async (tx: SqlRunner) => {
      const head = await this.events.lockHead(tx, tenantId);
      const events = this.chainedAfter(head, appends);
      if (!(await this.events.writeEvents(tx, tenantId, head, events))) {
        throw new Error(`the audit chain head of tenant ${tenantId} moved while its row was locked`);
      }
      return events;
    };
    const events = db === this.prisma ? await this.writes.run(tenantId, run) : await run(db);
    this.heads.set(tenantId, events[events.length - 1]);
    return events.map(({ seq, hash }) => ({ seq, hash }));
  }

  /**
   * The events with their seq and links, chained on `head`: the hash with the active chain key, the
   * digest on the head's (none while the head's is not computed: digest-backfill.ts computes them).
   */
  private chainedAfter(head: ChainHead, appends: PendingAppend[]): ChainedEvent[] {
    const chainKey = this.chainKeys.activeVersion;
    let { seq, hash: prevHash, digest: prevDigest } = head;
    return appends.map(({ event, change }) => {
      seq += 1;
      const inputs = chainInputs({ ...event, seq }, prevHash, prevDigest);
      const hash = this.chainKeys.mac(chainKey, inputs.hashInput)!;
      const digest = inputs.digestInput === null ? null : sha256Hex(inputs.digestInput);
      const chained = { event, change, seq, prevHash, hash, chainKey, prevDigest, digest };
      prevHash = hash;
      prevDigest = digest;
      return chained;
    });
  }

  private async *ndjson(
    tenantId: string,
    first: IteratorResult<AuditEvent[]>,
    rest: AsyncGenerator<AuditEvent[]>,
    end: ExportEnd | undefined,
  ): AsyncGenerator<string> {
    try {
      if (first.done) return;
      let last = first.value[first.value.length - 1];
      yield ndjsonLines(first.value);
      for await (const batch of rest) {
        last = batch[batch.length - 1];
        yield ndjsonLines(batch);
      }
      if (end && last.digest !== null) yield await end({ seq: last.seq, digest: last.digest });
    } catch (error) {
      // The status line is long gone: the client sees a cut stream, so say why here.
      this.logger.error({ err: error, tenantId }, 'audit export stopped mid-stream');
      throw error;
    }
  }
}

/**
 * The verdict with the public chain's: its first bad digest, when no earlier fault was found
 * (an edit of content fails both at once, and the keyed check says more).
 */
function withDigestFault(
  verdict: ChainVerification,
  digestFault: number | null,
  startSeq: number,
): ChainVerification {
  if (digestFault === null || (!verdict.ok && verdict.firstBadSeq <= digestFault)) return verdict;
  return { ok: false, checked: digestFault - startSeq, firstBadSeq: digestFault, reason: 'digest mismatch' };
}

/** The entry's details, redacted, with the issuer that vouched for a signed-in user. */
function detailsOf(entry: AuditEntry, actor: Actor): Record<string, unknown> | null {
  const details = actor.issuer ? { ...entry.details, issuer: actor.issuer } : entry.details;
  // Details may quote an upstream (tile ids): jsonb refuses a lone surrogate in them.
  return details ? wellFormedJson(redactSecrets(details)) : null;
}

/** A point of the chain a signed checkpoint vouches for: its seq and the digest of the event there. */
export interface SignedPoint {
  seq: number;
  digest: string;
}

/** The closing line of an export, made from its last event. */
export type ExportEnd = (last: { seq: number; digest: string }) => Promise<string>;

interface PendingAppend {
  event: NewAuditEvent;
  change: AuditChange | undefined;
}

function ndjsonLines(batch: AuditEvent[]): string {
  return batch.map((row) => `${auditEventLine(row)}\n`).join('');
}

/**
 * A stored event as one line of the export, without its newline: the same bytes for the same row
 * every time, so the audit sinks deliver exactly what the export gives and a redelivery repeats it.
 */
export function auditEventLine(row: AuditEvent): string {
  return JSON.stringify(toView(row));
}

function filterWhere(tenantId: string, filter: AuditFilter): Prisma.AuditEventWhereInput {
  const from = filter.from === undefined ? undefined : new Date(filter.from);
  const to = filter.to === undefined ? undefined : new Date(filter.to);
  if (from && to && from >= to)
    throw validationProblem([{ path: 'to', message: 'to must be later than from' }]);
  return {
    tenantId,
    at: { gte: from, lt: to },
    action: filter.action === undefined ? undefined : { in: actionsMatching(filter.action) },
    actor: filter.actors === undefined ? undefined : { in: [...filter.actors] },
    target: filter.target,
    outcome: filter.outcome,
  };
}

/** Audit cursors carry the seq of the last event shown (and its time, unused: seq orders the chain). */
function cursorSeq(cursor: string | undefined): number | null {
  const keyset = decodeCursor(cursor);
  if (keyset === null) return null;
  if (!/^[1-9]\d{0,8}$/.test(keyset.id)) {
    throw validationProblem([{ path: 'cursor', message: 'is not one this gateway issued' }]);
  }
  return Number(keyset.id);
}

const AUDIT_EVENT_VIEW = [
  'seq',
  'at',
  'tenantId',
  'actor',
  'onBehalfOf',
  'action',
  'target',
  'requestId',
  'outcome',
  'httpStatus',
  'details',
  'prevHash',
  'hash',
  'chainKey',
  'prevDigest',
  'digest',
] as const;

function toView(row: AuditEvent): AuditEventView {
  // Stored events hold catalogue names: appends take no other, and the catalogue keeps every name once written.
  return viewOf(row, AUDIT_EVENT_VIEW) as AuditEventView;
}
