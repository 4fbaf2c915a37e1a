import { Injectable } from '@nestjs/common';
import { AuditEvent, Prisma } from '../generated/prisma/client';
import { PrismaService, PrismaTx } from '../database/prisma.service';
import { appendStatement, describedText, groupWrites, WriteGroup } from './append-statement';
import { AuditEventContent, GENESIS_HASH, VerifyRow } from './audit-chain';
import type { LegacyEnd } from './audit-checkpoint';
import type { AuditedTable, ColumnValues } from './table-columns';

/** Runs SQL: the client itself (each statement commits on its own) or a transaction. */
export type SqlRunner = Pick<PrismaTx, '$queryRaw' | '$executeRaw'>;

/**
 * A write to one table that must commit with an audit event or not at all: it is run in the
 * event's statement, only if the event is written. Each table's repository says what to write;
 * this repository alone turns it into SQL. Values and conditions are SQL fragments with their
 * parameters (`Prisma.sql\`${id}::uuid\``); a condition names its columns with their table. The
 * writes of a kind go to Postgres together, each parameter as an array (append-statement.ts): no
 * parameter may be an array or bytes itself, and an `ON CONFLICT` clause takes none (it reads
 * `EXCLUDED`). The tables and the columns given values are typed from the Prisma models
 * (table-columns.ts).
 */
export type TableWrite = { [T in AuditedTable]: WriteTo<T> }[AuditedTable];

/** A write to `T`, naming only columns `T` has (table-columns.ts). */
type WriteTo<T extends AuditedTable> =
  | {
      insert: T;
      values: ColumnValues<T, Prisma.Sql>;
      /** What to do when the row exists: an `ON CONFLICT …` clause. */
      onConflict?: Prisma.Sql;
    }
  | { update: T; set: ColumnValues<T, Prisma.Sql>; where: Prisma.Sql }
  | { delete: T; where: Prisma.Sql };

/** The writes that go with one event. */
export type AuditChange = TableWrite | readonly TableWrite[];

export interface AppendedEvent {
  seq: number;
  hash: string;
}

export type NewAuditEvent = Omit<AuditEventContent, 'seq' | 'prevHash'>;

/**
 * A chain's head: its newest event's seq, hash and digest (the genesis values for an empty chain).
 * The digest is null while that event's is not computed yet (digest-backfill.ts).
 */
export interface ChainHead extends AppendedEvent {
  digest: string | null;
}

/** An event ready to write: chained on its predecessor, with the writes that go with it. */
export interface ChainedEvent extends ChainHead {
  event: NewAuditEvent;
  change: AuditChange | undefined;
  prevHash: string;
  chainKey: string;
  prevDigest: string | null;
}

// Rows per read: an export or a verification holds one batch at a time, whatever the log's size.
const EXPORT_BATCH = 1000;
export const VERIFY_BATCH = 1000;
/** Arbitrary constant shared by every replica, so only one records legacy ends at a time. */
const LEGACY_ENDS_LOCK_ID = 727_310_002;
// Kinds of write whose parameter types are kept; the code makes far fewer.
const MAX_WRITE_KINDS = 1000;
// Names prepared statements uniquely, on whatever session they land.
let describedCount = 0;

/** The SQL of the audit_events and audit_chains tables. */
@Injectable()
export class AuditEventsRepository {
  private readonly typesByText = new Map<string, string[]>();

  constructor(private readonly prisma: PrismaService) {}

  /** A tenant's chain head as stored, making its chain first if it has none. */
  async readHead(db: SqlRunner, tenantId: string): Promise<ChainHead> {
    const [head] = await db.$queryRaw<ChainHead[]>`${headQuery(tenantId)}`;
    if (head) return head;
    await createChain(db, tenantId);
    return { seq: 0, hash: GENESIS_HASH, digest: GENESIS_HASH };
  }

  /** The same, with the chain row locked until the transaction `tx` ends. */
  async lockHead(tx: SqlRunner, tenantId: string): Promise<ChainHead> {
    const lock = () =>
      tx.$queryRaw<
        { locked: number }[]
      >`SELECT 1 AS locked FROM audit_chains WHERE tenant_id = ${tenantId}::uuid FOR UPDATE`;
    if ((await lock()).length === 0) {
      await createChain(tx, tenantId);
      await lock();
    }
    // Read in a statement of its own once locked: a lock waited for rechecks only the locked row, so a
    // join taken with it would miss the head event the previous holder committed, and its digest.
    const [head] = await tx.$queryRaw<ChainHead[]>`${headQuery(tenantId)}`;
    return head;
  }

  /**
   * Writes chained events in one statement, if the tenant's head is still `expected`: it locks the
   * chain row (waiting for the appender before, whose head it then sees), compares, inserts each
   * event and runs its change, and moves the head. The lock queues concurrent appenders, so seq has
   * no gaps; it is held until commit, hence one round trip. A change sees its own event as
   * `appended`. Every sub-statement sees the database as it was when the statement began, so no
   * change may depend on another's write: a create's outcome is only appended after its pending
   * event committed. The text depends only on the kinds of writes the batch carries, so it is one
   * of few and sent prepared. False, having written nothing, when the head (its digest included)
   * was another.
   */
  async writeEvents(
    db: SqlRunner,
    tenantId: string,
    expected: ChainHead,
    events: ChainedEvent[],
  ): Promise<boolean> {
    const groups = groupWrites(events);
    const types = await this.parameterTypes(db, groups);
    const statement = appendStatement(tenantId, expected, events, groups, types);
    // Past Prisma when `db` is the client itself, whose raw queries copy every parameter and
    // round-trip it through JSON; prepared, since a text is one of few kinds of batch.
    const [{ written }] =
      db === this.prisma
        ? await this.prisma.statement<{ written: number }>(statement, { prepared: true })
        : await db.$queryRaw<{ written: number }[]>(statement);
    return written === 1;
  }

  /** Each group's parameter types, as Postgres infers them; asked once per kind of write. */
  private async parameterTypes(db: SqlRunner, groups: WriteGroup[]): Promise<string[][]> {
    const unknown = groups.filter((group) => !this.typesByText.has(group.text));
    if (unknown.length > 0) {
      const describe = async (tx: SqlRunner) => {
        for (const group of unknown) this.typesByText.set(group.text, await describeParameters(tx, group));
      };
      // A prepared statement lives on one session: the client itself would send each on any.
      await (db === this.prisma ? this.prisma.$transaction(describe) : describe(db));
      if (this.typesByText.size > MAX_WRITE_KINDS) this.typesByText.clear();
    }
    return groups.map((group) => this.typesByText.get(group.text) ?? []);
  }

  /** The tenants whose head event has no digest yet: the ones digest-backfill.ts has to compute. */
  async undigestedChains(): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<{ tenantId: string }[]>`
      SELECT c.tenant_id::text AS "tenantId" FROM audit_chains c
      JOIN audit_events e ON e.tenant_id = c.tenant_id AND e.seq = c.last_seq
      WHERE e.digest IS NULL`;
    return rows.map((row) => row.tenantId);
  }

  /** A tenant's first event without a digest, and the digest before it (genesis when none is kept). */
  async firstUndigested(tenantId: string): Promise<{ seq: number; prevDigest: string } | null> {
    const [first] = await this.prisma.$queryRaw<{ seq: number; prevDigest: string }[]>`
      SELECT e.seq, coalesce(p.digest, ${GENESIS_HASH}) AS "prevDigest"
      FROM audit_events e
      LEFT JOIN audit_events p ON p.tenant_id = e.tenant_id AND p.seq = e.seq - 1
      WHERE e.tenant_id = ${tenantId}::uuid AND e.digest IS NULL
      ORDER BY e.seq LIMIT 1`;
    return first ?? null;
  }

  /** Stores computed links of the public chain. */
  async storeDigests(
    tx: SqlRunner,
    tenantId: string,
    links: { seq: number[]; prevDigest: string[]; digest: string[] },
  ): Promise<void> {
    await tx.$executeRaw`
      UPDATE audit_events e SET prev_digest = v.prev_digest, digest = v.digest
      FROM unnest(${links.seq}::int[], ${links.prevDigest}::text[], ${links.digest}::text[])
        AS v (seq, prev_digest, digest)
      WHERE e.tenant_id = ${tenantId}::uuid AND e.seq = v.seq`;
  }

  /** One page of a tenant's events, newest first, before `beforeSeq` when given. */
  page(where: Prisma.AuditEventWhereInput, beforeSeq: number | null, take: number): Promise<AuditEvent[]> {
    return this.prisma.auditEvent.findMany({
      where: { ...where, ...(beforeSeq === null ? {} : { seq: { lt: beforeSeq } }) },
      orderBy: { seq: 'desc' },
      take,
    });
  }

  /** The seq of a tenant's newest event (0 when it has none). */
  async lastSeq(tenantId: string): Promise<number> {
    const head = await this.prisma.auditChain.findUnique({ where: { tenantId }, select: { lastSeq: true } });
    return head?.lastSeq ?? 0;
  }

  /** Matching events in seq order, one keyset batch at a time: memory stays flat whatever the log's size. */
  async *exportBatches(where: Prisma.AuditEventWhereInput): AsyncGenerator<AuditEvent[]> {
    for (let after = 0; ;) {
      const batch = await this.prisma.auditEvent.findMany({
        where: { AND: [where, { seq: { gt: after } }] },
        orderBy: { seq: 'asc' },
        take: EXPORT_BATCH,
      });
      if (batch.length > 0) yield batch;
      if (batch.length < EXPORT_BATCH) return;
      after = batch[batch.length - 1].seq;
    }
  }

  /** A tenant's chain head as stored (null before its first event). */
  async chainHead(tenantId: string): Promise<ChainHead | null> {
    const [head] = await this.prisma.$queryRaw<ChainHead[]>`${headQuery(tenantId)}`;
    return head ?? null;
  }

  /** Tenants whose chain's first event is older than `cutoff` and is not also its newest. */
  async pruneCandidates(cutoff: Date): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<{ tenant_id: string }[]>`
      SELECT c.tenant_id FROM audit_chains c
      JOIN audit_events e ON e.tenant_id = c.tenant_id AND e.seq = c.start_seq
      WHERE e.at < ${cutoff} AND c.start_seq < c.last_seq`;
    return rows.map((row) => row.tenant_id);
  }

  /** Where a tenant's chain starts and ends, read in `tx` (`lock`: with its row locked). */
  async chainBounds(
    tx: PrismaTx,
    tenantId: string,
    lock = false,
  ): Promise<{ startSeq: number; lastSeq: number }> {
    const [chain] = await tx.$queryRaw<{ start_seq: number; last_seq: number }[]>`
      SELECT start_seq, last_seq FROM audit_chains WHERE tenant_id = ${tenantId}::uuid
      ${lock ? Prisma.sql`FOR UPDATE` : Prisma.empty}`;
    return { startSeq: chain.start_seq, lastSeq: chain.last_seq };
  }

  /**
   * The oldest event from `startSeq` on that is at or after `cutoff` or not yet delivered to one of
   * the audit `sinks`, or else the newest.
   */
  async firstKept(
    tx: PrismaTx,
    tenantId: string,
    chain: { startSeq: number; lastSeq: number },
    cutoff: Date,
    sinks: readonly string[],
  ): Promise<{ seq: number; prevHash: string } | undefined> {
    // An event one of the configured audit sinks has not delivered is kept too.
    const undelivered =
      sinks.length === 0
        ? Prisma.sql`false`
        : Prisma.sql`seq > (
            SELECT min(COALESCE(k.delivered_seq, 0))
            FROM ${sinksTable(sinks)}
            LEFT JOIN audit_sink_cursors k ON k.sink = s.sink AND k.tenant_id = ${tenantId}::uuid)`;
    const [kept] = await tx.$queryRaw<{ seq: number; prev_hash: string }[]>`
      SELECT seq, prev_hash FROM audit_events
      WHERE tenant_id = ${tenantId}::uuid AND seq >= ${chain.startSeq}
        AND (at >= ${cutoff} OR seq = ${chain.lastSeq} OR ${undelivered})
      ORDER BY seq LIMIT 1`;
    return kept && { seq: kept.seq, prevHash: kept.prev_hash };
  }

  /** Deletes the tenant's events with `from <= seq < to`; answers how many. */
  deleteRange(tx: PrismaTx, tenantId: string, from: number, to: number): Promise<number> {
    return tx.$executeRaw`
      DELETE FROM audit_events WHERE tenant_id = ${tenantId}::uuid AND seq >= ${from} AND seq < ${to}`;
  }

  /** The chain now starts at `start` (its predecessor's hash `startHash`). */
  async moveStart(
    tx: PrismaTx,
    tenantId: string,
    start: { seq: number; prevHash: string },
    at: Date,
  ): Promise<void> {
    await tx.auditChain.update({
      where: { tenantId },
      data: { startSeq: start.seq, startHash: start.prevHash, prunedAt: at },
    });
  }

  /** The chain row of a tenant, read in `tx`. */
  chain(tx: PrismaTx, tenantId: string) {
    return tx.auditChain.findUnique({ where: { tenantId } });
  }

  /** The hash and digest of the tenant's event at `seq`, read in `tx`; undefined when there is none. */
  async linkAt(
    tx: SqlRunner,
    tenantId: string,
    seq: number,
  ): Promise<{ hash: string; digest: string | null } | undefined> {
    const [link] = await tx.$queryRaw<{ hash: string; digest: string | null }[]>`
      SELECT hash, digest FROM audit_events WHERE tenant_id = ${tenantId}::uuid AND seq = ${seq}::int`;
    return link;
  }

  /** The chain start the newest audit.prune event declares, or null when there is none. */
  async declaredStart(tx: PrismaTx, tenantId: string): Promise<number | null> {
    const [prune] = await tx.$queryRaw<{ start: string | null }[]>`
      SELECT details->>'startSeq' AS start FROM audit_events
      WHERE tenant_id = ${tenantId}::uuid AND action = 'audit.prune'
      ORDER BY seq DESC LIMIT 1`;
    return prune?.start ? Number(prune.start) : null;
  }

  /**
   * The verification read. Postgres renders each event's hash input except `details` and the link
   * (prevHash, or prevDigest for the digest) exactly as auditEventHash writes it (to_json escapes strings as JSON.stringify does; the time in
   * toISOString's form), because at a million events decoding every column in JavaScript costs
   * more than the hashing. test/audit-hash-input.e2e-spec.ts holds the two renderings equal.
   * prev_hash and tenant_id skip to_json, which is slow on long values: a uuid needs no escaping,
   * and a prev_hash is only hashed once it equals the previous event's hex hash.
   */
  readForVerify(tx: SqlRunner, tenantId: string, after: number): Promise<VerifyRow[]> {
    return tx.$queryRaw<VerifyRow[]>`
      SELECT seq, prev_hash AS "prevHash", hash, chain_key AS "chainKey",
             prev_digest AS "prevDigest", digest,
             '{"action":' || to_json(action)::text || ',"actor":' || to_json(actor)::text
               || ',"at":"' || to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
               || '","details":' AS head,
             details::text AS details,
             ',"httpStatus":' || coalesce(http_status::text, 'null')
               || ',"onBehalfOf":' || coalesce(to_json(on_behalf_of)::text, 'null')
               || ',"outcome":' || to_json(outcome)::text AS middle,
             ',"requestId":' || to_json(request_id)::text || ',"seq":' || seq::text
               || ',"target":' || coalesce(to_json(target)::text, 'null')
               || ',"tenantId":"' || tenant_id::text || '"}' AS tail
      FROM audit_events
      WHERE tenant_id = ${tenantId}::uuid AND seq > ${after}
      ORDER BY seq
      LIMIT ${VERIFY_BATCH}`;
  }

  // Legacy ends (legacy-ends.ts): recorded once per database, in one transaction, by one replica.

  /** Until `tx` ends, no other replica records legacy ends. */
  async lockLegacyEnds(tx: PrismaTx): Promise<void> {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LEGACY_ENDS_LOCK_ID}::bigint)`;
  }

  /** Whether any event was chained with a chain key. */
  anyKeyed(tx: PrismaTx): Promise<boolean> {
    return anyEvent(tx, { chainKey: { not: null } });
  }

  /** Whether any event kept was chained with the chain key `keyVersion`. */
  anyChainedWith(keyVersion: string): Promise<boolean> {
    return anyEvent(this.prisma, { chainKey: keyVersion });
  }

  /**
   * Per chain that has none recorded: the event before its first keyed one (or its last event, when
   * none is keyed), if that event is unkeyed and still kept. Unkeyed events after a keyed one were
   * not chained so and get no legacy end.
   */
  unrecordedLegacyEnds(tx: PrismaTx): Promise<LegacyEnd[]> {
    return tx.$queryRaw<LegacyEnd[]>`
      SELECT c.tenant_id::text AS "tenantId", e.seq, e.hash
      FROM audit_chains c
      CROSS JOIN LATERAL (
        SELECT coalesce(
          (SELECT k.seq FROM audit_events k
           WHERE k.tenant_id = c.tenant_id AND k.seq >= c.start_seq AND k.chain_key IS NOT NULL
           ORDER BY k.seq LIMIT 1),
          c.last_seq + 1) - 1 AS seq
      ) legacy
      JOIN audit_events e ON e.tenant_id = c.tenant_id AND e.seq = legacy.seq AND e.chain_key IS NULL
      WHERE c.legacy_end_signature IS NULL AND legacy.seq >= c.start_seq`;
  }

  async recordLegacyEnd(
    tx: PrismaTx,
    end: LegacyEnd,
    signed: { keyVersion: string; signature: string },
  ): Promise<void> {
    await tx.auditChain.update({
      where: { tenantId: end.tenantId },
      data: {
        legacyEndSeq: end.seq,
        legacyEndHash: end.hash,
        legacyEndKeyVersion: signed.keyVersion,
        legacyEndSignature: signed.signature,
      },
    });
  }
}

async function anyEvent(db: PrismaService | PrismaTx, where: Prisma.AuditEventWhereInput): Promise<boolean> {
  return (await db.auditEvent.findFirst({ where, select: { seq: true } })) !== null;
}

/** The sinks named, as a table `s (sink)` of one row each; `sinks` must not be empty. */
export function sinksTable(sinks: readonly string[]): Prisma.Sql {
  return Prisma.sql`(VALUES ${Prisma.join(sinks.map((sink) => Prisma.sql`(${sink})`))}) AS s (sink)`;
}

// The head's digest is its event's: a chain row written by a gateway that kept no digests stays right.
function headQuery(tenantId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT c.last_seq AS seq, c.last_hash AS hash,
           CASE WHEN c.last_seq = 0 THEN ${GENESIS_HASH} ELSE e.digest END AS digest
    FROM audit_chains c LEFT JOIN audit_events e ON e.tenant_id = c.tenant_id AND e.seq = c.last_seq
    WHERE c.tenant_id = ${tenantId}::uuid`;
}

/** A tenant's first event: the chain row is made, by whichever appender comes first. */
async function createChain(db: SqlRunner, tenantId: string): Promise<void> {
  await db.$executeRaw`
    INSERT INTO audit_chains (tenant_id, last_seq, last_hash, start_seq, start_hash)
    VALUES (${tenantId}::uuid, 0, ${GENESIS_HASH}, 1, ${GENESIS_HASH})
    ON CONFLICT (tenant_id) DO NOTHING`;
}

/** The types Postgres gives the parameters of a group's write, read from the statement prepared on `tx`'s session. */
async function describeParameters(tx: SqlRunner, group: WriteGroup): Promise<string[]> {
  const name = `audit_write_${++describedCount}`;
  await tx.$executeRaw(Prisma.raw(`PREPARE ${name} AS ${describedText(group)}`));
  const [{ types }] = await tx.$queryRaw<{ types: string[] }[]>`
    SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = ${name}`;
  await tx.$executeRaw(Prisma.raw(`DEALLOCATE ${name}`));
  return types;
}
