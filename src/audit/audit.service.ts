import { Injectable, Logger, Optional } from '@nestjs/common';
import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { AuditEvent, Prisma } from '../generated/prisma/client';
import type { Actor } from '../auth/principal';
import { KeyedBatcher, WaitTimeoutError } from '../common/batcher';
import { KeyedLimiter } from '../common/limiter';
import { wellFormedJson } from '../common/json-body';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { validationProblem } from '../common/problem/validation';
import { databaseUnavailable, databaseUnavailableProblem } from '../database/database-errors';
import { AuditChainKeys } from '../crypto/audit-chain-keys';
import { PrismaService, PrismaTx } from '../database/prisma.service';
import { MetricsService } from '../metrics/metrics.service';
import { redactSecrets } from '../redaction/redact';
import {
  AuditEventContent,
  ChainAnchor,
  ChainBounds,
  ChainVerifier,
  GENESIS_HASH,
  hashInput,
  VerifyRow,
  verifyRowHash,
} from './audit-chain';
import { genuineLegacyEnd } from './audit-checkpoint';
import type {
  AuditEventView,
  AuditFilterDto,
  AuditOutcome,
  AuditQueryDto,
  ChainVerification,
} from './dto/audit.dto';
import { viewOf } from '../common/views';

export interface AuditEntry {
  tenantId: string;
  action: string;
  target?: string | null;
  outcome: AuditOutcome;
  httpStatus?: number | null;
  details?: Record<string, unknown>;
}

// Rows per read: an export or a verification holds one batch at a time, whatever the log's size.
const EXPORT_BATCH = 1000;
const VERIFY_BATCH = 5000;
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
/**
 * A transaction that appends to a tenant's chain waits for the chain row at its append, holding a
 * pooled connection meanwhile: a burst of one tenant's writes would take every connection, and
 * every other tenant's writes would wait for one. So this process runs one such transaction per
 * tenant at a time (they take the row in turn anyway); the others wait here, holding nothing.
 */
const TRANSACTIONS_IN_FLIGHT_PER_TENANT = 1;

const EMPTY_CHAIN: ChainBounds = { startSeq: 1, startHash: GENESIS_HASH, lastSeq: 0, lastHash: GENESIS_HASH };

/**
 * Appends to a tenant's chain, and reads it back for review, export and verification.
 * Appenders pass their own transaction so the event commits with the change it records, or neither does.
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
  private readonly transactions = new KeyedLimiter<string>(
    TRANSACTIONS_IN_FLIGHT_PER_TENANT,
    APPEND_MAX_WAIT_MS,
  );
  // The head each tenant's chain has after this process's latest append, as far as it knows.
  private readonly heads = new Map<string, AppendedEvent>();

  // No metrics in the CLI, which has no HTTP layer to serve them.
  constructor(
    private readonly prisma: PrismaService,
    private readonly chainKeys: AuditChainKeys,
    @Optional() metrics?: MetricsService,
  ) {
    metrics?.countQueuedAppends(() => this.appends.queued);
  }

  /**
   * Appends `entry` to its tenant's chain. `db` is a transaction the event must commit with, or the
   * client itself: the append is one statement, so alone it needs no transaction. `change` is a
   * write that must commit with the event or not at all, run in the same statement: a
   * data-modifying statement (or several) that reads `FROM appended` (the event's row), so that it
   * happens exactly when the event is written.
   */
  async append(db: SqlRunner, actor: Actor, entry: AuditEntry, change?: AuditChange): Promise<AppendedEvent> {
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

  /**
   * Runs `work` in a transaction that appends to `tenantId`'s chain (append(tx, ...)), so that its
   * changes and its events commit together; after the tenant's other such transactions in this
   * process (TRANSACTIONS_IN_FLIGHT_PER_TENANT). 503 when it waited for them as long as a request
   * may wait for a connection.
   */
  async transaction<T>(
    tenantId: string,
    work: (tx: PrismaTx) => Promise<T>,
    options?: { timeout?: number },
  ): Promise<T> {
    try {
      return await this.transactions.run(tenantId, () => this.prisma.$transaction(work, options));
    } catch (error) {
      throw error instanceof WaitTimeoutError ? databaseUnavailable() : error;
    }
  }

  /** For events that accompany no other write (e.g. a credential refused upstream). */
  async record(actor: Actor, entry: AuditEntry): Promise<void> {
    await this.append(this.prisma, actor, entry);
  }

  /** One page, newest first; the cursor is the position after the page's oldest event. */
  async list(tenantId: string, query: AuditQueryDto): Promise<Page<AuditEventView>> {
    const limit = query.limit ?? 50;
    const before = cursorSeq(query.cursor);
    const rows = await this.prisma.auditEvent.findMany({
      where: { ...filterWhere(tenantId, query), ...(before === null ? {} : { seq: { lt: before } }) },
      orderBy: { seq: 'desc' },
      take: limit + 1,
    });
    return toPage(rows, limit, (row) => ({ at: row.at.toISOString(), id: String(row.seq) }), toView);
  }

  /**
   * Every matching event as NDJSON in seq order, read in batches as the client consumes them.
   * It covers the log as it stood when the export began, so appends cannot stretch a download.
   */
  async exportNdjson(tenantId: string, filter: AuditFilterDto): Promise<Readable> {
    const head = await this.prisma.auditChain.findUnique({ where: { tenantId }, select: { lastSeq: true } });
    const batches = exportBatches(this.prisma, {
      ...filterWhere(tenantId, filter),
      seq: { lte: head?.lastSeq ?? 0 },
    });
    // Read before answering: a database failure now is still a proper problem, not a cut stream.
    const first = await batches.next();
    return Readable.from(this.ndjson(tenantId, first, batches), { objectMode: false });
  }

  /**
   * Recomputes the chain from its start (genesis, or the checkpoint pruning left) to its recorded
   * head, in one snapshot so concurrent appends and pruning cannot cause a false alarm. With an
   * `anchor` (a kept checkpoint the caller proved genuine), the chain must still pass through it.
   * Unkeyed events count only up to the legacy end the chain row records, if genuine (legacy-ends.ts).
   */
  async verify(tenantId: string, anchor: ChainAnchor | null = null): Promise<ChainVerification> {
    const result = await this.prisma.$transaction(
      async (tx) => {
        const chain = await tx.auditChain.findUnique({ where: { tenantId } });
        const bounds = chain ?? EMPTY_CHAIN;
        // A later start than genesis is retention's, and its audit.prune event says so.
        if (bounds.startSeq > 1 && (await declaredStart(tx, tenantId)) !== bounds.startSeq) {
          return {
            ok: false as const,
            checked: 0,
            firstBadSeq: bounds.startSeq,
            reason: 'undeclared start' as const,
          };
        }
        const legacyEnd = chain && genuineLegacyEnd(this.chainKeys, tenantId, chain);
        const verifier = new ChainVerifier(bounds, anchor, legacyEnd);
        // then() starts the query now: Prisma runs a query only once something awaits it.
        const read = (after: number) => readForVerify(tx, tenantId, after).then((rows) => rows);
        for (let next = read(bounds.startSeq - 1); ;) {
          const batch = await next;
          const more = batch.length === VERIFY_BATCH;
          if (more) {
            // Postgres renders the next batch while this one is hashed.
            next = read(batch[batch.length - 1].seq);
            await setImmediate();
          }
          if (!batch.every((row) => verifier.check(row, verifyRowHash(row, this.chainKeys))) || !more) break;
        }
        return verifier.result();
      },
      { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, timeout: VERIFY_TIMEOUT_MS },
    );
    if (!result.ok) this.logger.warn({ tenantId, ...result }, 'audit chain verification failed');
    return result;
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
    const head = this.heads.get(tenantId) ?? (await readHead(db, tenantId));
    const events = this.chainedAfter(head, appends);
    // The next batch may chain on these before they commit; if they do not, it will not match.
    this.heads.set(tenantId, events[events.length - 1]);
    try {
      if (await writeEvents(this.statementsOf(db), tenantId, head, events))
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
      const head = await lockHead(tx, tenantId);
      const events = this.chainedAfter(head, appends);
      if (!(await writeEvents(this.statementsOf(tx), tenantId, head, events))) {
        throw new Error(`the audit chain head of tenant ${tenantId} moved while its row was locked`);
      }
      return events;
    };
    const events = db === this.prisma ? await this.prisma.$transaction((tx) => run(tx)) : await run(db);
    this.heads.set(tenantId, events[events.length - 1]);
    return events.map(({ seq, hash }) => ({ seq, hash }));
  }

  /** How `db` runs a statement: past Prisma when it is the client itself (PrismaService.statement). */
  private statementsOf(db: SqlRunner): RunStatement {
    return db === this.prisma
      ? (sql) => this.prisma.statement(sql)
      : <Row>(sql: Prisma.Sql) => db.$queryRaw<Row[]>(sql);
  }

  /** The events with their seq, prevHash and hash, chained on `head` with the active chain key. */
  private chainedAfter(head: AppendedEvent, appends: PendingAppend[]): ChainedEvent[] {
    const chainKey = this.chainKeys.activeVersion;
    let { seq, hash: prevHash } = head;
    return appends.map(({ event, change }) => {
      seq += 1;
      const hash = this.chainKeys.mac(chainKey, hashInput({ ...event, seq, prevHash }))!;
      const chained = { event, change, seq, prevHash, hash, chainKey };
      prevHash = hash;
      return chained;
    });
  }

  private async *ndjson(
    tenantId: string,
    first: IteratorResult<AuditEvent[]>,
    rest: AsyncGenerator<AuditEvent[]>,
  ): AsyncGenerator<string> {
    try {
      if (first.done) return;
      yield ndjsonLines(first.value);
      for await (const batch of rest) yield ndjsonLines(batch);
    } catch (error) {
      // The status line is long gone: the client sees a cut stream, so say why here.
      this.logger.error({ err: error, tenantId }, 'audit export stopped mid-stream');
      throw error;
    }
  }
}

/** The entry's details, redacted, with the issuer that vouched for a signed-in user. */
function detailsOf(entry: AuditEntry, actor: Actor): Record<string, unknown> | null {
  const details = actor.issuer ? { ...entry.details, issuer: actor.issuer } : entry.details;
  // Details may quote an upstream (tile ids): jsonb refuses a lone surrogate in them.
  return details ? wellFormedJson(redactSecrets(details)) : null;
}

type NewAuditEvent = Omit<AuditEventContent, 'seq' | 'prevHash'>;

/** Runs SQL: the client itself (each statement commits on its own) or a transaction. */
export type SqlRunner = Pick<PrismaTx, '$queryRaw' | '$executeRaw'>;

type RunStatement = <Row>(sql: Prisma.Sql) => Promise<Row[]>;

/** Writes that commit with an audit event, each one data-modifying statement reading `FROM appended`. */
export type AuditChange = Prisma.Sql | readonly Prisma.Sql[];

interface PendingAppend {
  event: NewAuditEvent;
  change: AuditChange | undefined;
}

export interface AppendedEvent {
  seq: number;
  hash: string;
}

interface ChainedEvent extends PendingAppend, AppendedEvent {
  prevHash: string;
  chainKey: string;
}

/** A tenant's chain head as stored, making its chain first if it has none. */
async function readHead(db: SqlRunner, tenantId: string): Promise<AppendedEvent> {
  const [head] = await db.$queryRaw<AppendedEvent[]>`
    SELECT last_seq AS seq, last_hash AS hash FROM audit_chains WHERE tenant_id = ${tenantId}::uuid`;
  if (head) return head;
  await createChain(db, tenantId);
  return { seq: 0, hash: GENESIS_HASH };
}

/** The same, with the chain row locked until the transaction `tx` ends. */
async function lockHead(tx: SqlRunner, tenantId: string): Promise<AppendedEvent> {
  const lock = () => tx.$queryRaw<AppendedEvent[]>`
    SELECT last_seq AS seq, last_hash AS hash FROM audit_chains WHERE tenant_id = ${tenantId}::uuid FOR UPDATE`;
  const [head] = await lock();
  if (head) return head;
  await createChain(tx, tenantId);
  return (await lock())[0];
}

/**
 * Writes chained events in one statement, if the tenant's head is still `expected`: it locks the
 * chain row (waiting for the appender before, whose head it then sees), compares, inserts each
 * event and runs its change, and moves the head. The lock queues concurrent appenders, so seq has
 * no gaps; it is held until commit, hence one round trip. A change sees its own event as
 * `appended`. Every sub-statement sees the database as it was when the statement began, so no
 * change may depend on another's write: a create's outcome is only appended after its pending
 * event committed. False, having written nothing, when the head was another.
 */
async function writeEvents(
  run: RunStatement,
  tenantId: string,
  expected: AppendedEvent,
  events: ChainedEvent[],
): Promise<boolean> {
  // appended_<n>: the n-th event's row.
  const names = events.map((_, index) => Prisma.raw(`appended_${index + 1}`));
  const steps = events.map(({ event, change, seq, prevHash, hash, chainKey }, index) => {
    const changes = change === undefined ? [] : Array.isArray(change) ? change : [change as Prisma.Sql];
    const ownChanges = changes.map(
      (write, part) => Prisma.sql`, change_${Prisma.raw(`${index + 1}_${part + 1}`)} AS (
          WITH appended AS (SELECT seq, hash FROM ${names[index]}) ${write})`,
    );
    const ownChange = ownChanges.length === 0 ? Prisma.empty : Prisma.join(ownChanges, '');
    return Prisma.sql`, ${names[index]} AS (
      INSERT INTO audit_events (tenant_id, seq, at, actor, on_behalf_of, action, target, request_id,
                                outcome, http_status, details, prev_hash, hash, chain_key)
      SELECT ${tenantId}::uuid, ${seq}::int, ${event.at}, ${event.actor}, ${event.onBehalfOf}, ${event.action},
             ${event.target}, ${event.requestId}, ${event.outcome}, ${event.httpStatus},
             ${event.details === null ? null : JSON.stringify(event.details)}::jsonb, ${prevHash}, ${hash}, ${chainKey}
      FROM expected
      RETURNING seq, hash
    )${ownChange}`;
  });
  const last = events[events.length - 1];
  const [{ written }] = await run<{ written: number }>(Prisma.sql`
    WITH chain AS (
      SELECT last_seq, last_hash FROM audit_chains WHERE tenant_id = ${tenantId}::uuid FOR UPDATE
    ), expected AS (
      SELECT 1 FROM chain WHERE last_seq = ${expected.seq}::int AND last_hash = ${expected.hash}
    )${Prisma.join(steps, '')}, head AS (
      UPDATE audit_chains SET last_seq = ${last.seq}::int, last_hash = ${last.hash}
      FROM expected WHERE audit_chains.tenant_id = ${tenantId}::uuid
    )
    SELECT count(*)::int AS written FROM expected`);
  return written === 1;
}

/** A tenant's first event: the chain row is made, by whichever appender comes first. */
async function createChain(db: SqlRunner, tenantId: string): Promise<void> {
  await db.$executeRaw`
    INSERT INTO audit_chains (tenant_id, last_seq, last_hash, start_seq, start_hash)
    VALUES (${tenantId}::uuid, 0, ${GENESIS_HASH}, 1, ${GENESIS_HASH})
    ON CONFLICT (tenant_id) DO NOTHING`;
}

/** The chain start the newest audit.prune event declares, or null when there is none. */
async function declaredStart(tx: PrismaTx, tenantId: string): Promise<number | null> {
  const [prune] = await tx.$queryRaw<{ start: string | null }[]>`
    SELECT details->>'startSeq' AS start FROM audit_events
    WHERE tenant_id = ${tenantId}::uuid AND action = 'audit.prune'
    ORDER BY seq DESC LIMIT 1`;
  return prune?.start ? Number(prune.start) : null;
}

/** Matching events in seq order, one keyset batch at a time: memory stays flat whatever the log's size. */
async function* exportBatches(
  prisma: PrismaService,
  where: Prisma.AuditEventWhereInput,
): AsyncGenerator<AuditEvent[]> {
  for (let after = 0; ;) {
    const batch = await prisma.auditEvent.findMany({
      where: { AND: [where, { seq: { gt: after } }] },
      orderBy: { seq: 'asc' },
      take: EXPORT_BATCH,
    });
    if (batch.length > 0) yield batch;
    if (batch.length < EXPORT_BATCH) return;
    after = batch[batch.length - 1].seq;
  }
}

/**
 * The verification read. Postgres renders each event's hash input except `details` exactly as
 * auditEventHash writes it (to_json escapes strings as JSON.stringify does; the time in
 * toISOString's form), because at a million events decoding every column in JavaScript costs
 * more than the hashing. test/audit-hash-input.e2e-spec.ts holds the two renderings equal.
 * prev_hash and tenant_id skip to_json, which is slow on long values: a uuid needs no escaping,
 * and a prev_hash is only hashed once it equals the previous event's hex hash.
 */
function readForVerify(tx: PrismaTx, tenantId: string, after: number): Promise<VerifyRow[]> {
  return tx.$queryRaw<VerifyRow[]>`
    SELECT seq, prev_hash AS "prevHash", hash, chain_key AS "chainKey",
           '{"action":' || to_json(action)::text || ',"actor":' || to_json(actor)::text
             || ',"at":"' || to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
             || '","details":' AS head,
           details::text AS details,
           ',"httpStatus":' || coalesce(http_status::text, 'null')
             || ',"onBehalfOf":' || coalesce(to_json(on_behalf_of)::text, 'null')
             || ',"outcome":' || to_json(outcome)::text || ',"prevHash":"' || prev_hash
             || '","requestId":' || to_json(request_id)::text || ',"seq":' || seq::text
             || ',"target":' || coalesce(to_json(target)::text, 'null')
             || ',"tenantId":"' || tenant_id::text || '"}' AS tail
    FROM audit_events
    WHERE tenant_id = ${tenantId}::uuid AND seq > ${after}
    ORDER BY seq
    LIMIT ${VERIFY_BATCH}`;
}

function ndjsonLines(batch: AuditEvent[]): string {
  return batch.map((row) => `${JSON.stringify(toView(row))}\n`).join('');
}

function filterWhere(tenantId: string, filter: AuditFilterDto): Prisma.AuditEventWhereInput {
  const from = filter.from === undefined ? undefined : new Date(filter.from);
  const to = filter.to === undefined ? undefined : new Date(filter.to);
  if (from && to && from >= to)
    throw validationProblem([{ path: 'to', message: 'to must be later than from' }]);
  return {
    tenantId,
    at: { gte: from, lt: to },
    action: filter.action,
    actor: filter.actor,
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
] as const;

function toView(row: AuditEvent): AuditEventView {
  return viewOf(row, AUDIT_EVENT_VIEW);
}
