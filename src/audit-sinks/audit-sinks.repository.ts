import { Injectable } from '@nestjs/common';
import { AuditEvent, Prisma } from '../generated/prisma/client';
import { PrismaService } from '../database/prisma.service';
import type { AuditSinkKind } from './audit-sink';
import type { EventRange } from './audit-event-lines';

/** A tenant whose chain a sink has not delivered to its end: the events after `after`, to `lastSeq`. */
export interface Backlog {
  tenantId: string;
  after: number;
  lastSeq: number;
}

/** A signed checkpoint a sink has not delivered, beside how far the sink has delivered its tenant. */
export interface PendingCheckpoint {
  id: bigint;
  tenantId: string;
  seq: number;
  at: Date;
  jws: string;
  /** The seq through which the sink has delivered the tenant's chain. */
  deliveredThrough: number;
}

export interface SinkState {
  leaseHolder: string | null;
  lastDeliveryAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  eventsBehind: number;
  /** The time of the oldest event not yet delivered; null when there is none. */
  oldestUndeliveredAt: Date | null;
}

/**
 * Where a sink stands in a tenant's chain: its cursor, but never before the chain's start (events
 * retention removed before the sink existed are not waited for).
 */
const DELIVERED_THROUGH = Prisma.sql`GREATEST(COALESCE(k.delivered_seq, 0), c.start_seq - 1)`;

/** The SQL of the audit_sinks and audit_sink_cursors tables, and the sinks' reads of the audit log. */
@Injectable()
export class AuditSinksRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Takes or renews the sink's lease for `leaseMs`, unless another holder's is still running; the
   * sink's row is made by the first claim. Times are the database's, so the replicas' clocks need
   * not agree.
   */
  async claim(sink: AuditSinkKind, holder: string, leaseMs: number): Promise<boolean> {
    const claimed = await this.prisma.$executeRaw`
      INSERT INTO audit_sinks (sink, lease_holder, lease_until)
      VALUES (${sink}, ${holder}, clock_timestamp() + ${leaseMs} * interval '1 millisecond')
      ON CONFLICT (sink) DO UPDATE
      SET lease_holder = EXCLUDED.lease_holder, lease_until = EXCLUDED.lease_until
      WHERE audit_sinks.lease_holder = EXCLUDED.lease_holder OR audit_sinks.lease_until IS NULL
        OR audit_sinks.lease_until < clock_timestamp()`;
    return claimed === 1;
  }

  async release(sink: AuditSinkKind, holder: string): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE audit_sinks SET lease_holder = NULL, lease_until = NULL
      WHERE sink = ${sink} AND lease_holder = ${holder}`;
  }

  /**
   * Up to `limit` tenants with events the sink has not delivered, from the first tenant id after
   * `from` round to the start again, so that every tenant gets its turn whatever their number.
   */
  backlog(sink: AuditSinkKind, from: string, limit: number): Promise<Backlog[]> {
    return this.prisma.$queryRaw<Backlog[]>`
      SELECT c.tenant_id::text AS "tenantId", ${DELIVERED_THROUGH} AS "after", c.last_seq AS "lastSeq"
      FROM audit_chains c
      LEFT JOIN audit_sink_cursors k ON k.sink = ${sink} AND k.tenant_id = c.tenant_id
      WHERE c.last_seq > ${DELIVERED_THROUGH}
      ORDER BY c.tenant_id <= ${from}::uuid, c.tenant_id
      LIMIT ${limit}`;
  }

  /**
   * The stored events of each range `after < seq <= through`, in seq order per tenant. Read past
   * Prisma's row mapping (PrismaService.statement): the shippers read every event once per sink.
   */
  async events(ranges: readonly EventRange[]): Promise<AuditEvent[]> {
    const rows = await this.prisma.statement<
      Omit<AuditEvent, 'at' | 'details'> & { at: Date | string; details: string | null }
    >(
      Prisma.sql`
      SELECT e.tenant_id::text AS "tenantId", e.seq, e.at, e.actor, e.on_behalf_of AS "onBehalfOf",
        e.action, e.target, e.request_id AS "requestId", e.outcome, e.http_status AS "httpStatus",
        e.details::text AS details, e.prev_hash AS "prevHash", e.hash, e.chain_key AS "chainKey",
        e.prev_digest AS "prevDigest", e.digest
      FROM unnest(${ranges.map((range) => range.tenantId)}::uuid[], ${ranges.map((range) => range.after)}::int[],
        ${ranges.map((range) => range.through)}::int[]) AS r (tenant_id, after, through)
      JOIN audit_events e ON e.tenant_id = r.tenant_id AND e.seq > r.after AND e.seq <= r.through
      ORDER BY e.tenant_id, e.seq`,
    );
    return rows.map((row) => ({
      ...row,
      // Raw queries answer a timestamp as a Date on Postgres, as text on the embedded database.
      at: new Date(row.at),
      details: row.details === null ? null : (JSON.parse(row.details) as Prisma.JsonValue),
    }));
  }

  /**
   * Up to `limit` of the checkpoints signed after the last one the sink delivered, in the order they
   * were signed. Those of seq 0 (signed over an empty chain) vouch for no event and are left out.
   */
  async checkpoints(sink: AuditSinkKind, limit: number): Promise<PendingCheckpoint[]> {
    const rows = await this.prisma.$queryRaw<
      { id: string; tenantId: string; seq: number; at: Date | string; jws: string; through: number }[]
    >`
      SELECT p.id::text AS id, p.tenant_id::text AS "tenantId", p.seq, p.at, p.jws,
        ${DELIVERED_THROUGH} AS through
      FROM audit_sinks s
      JOIN audit_checkpoints p ON p.id > s.delivered_checkpoint_id AND p.seq > 0
      LEFT JOIN audit_chains c ON c.tenant_id = p.tenant_id
      LEFT JOIN audit_sink_cursors k ON k.sink = s.sink AND k.tenant_id = p.tenant_id
      WHERE s.sink = ${sink}
      ORDER BY p.id
      LIMIT ${limit}`;
    return rows.map(({ id, at, through, ...checkpoint }) => ({
      ...checkpoint,
      id: BigInt(id),
      // Raw queries answer a timestamp as a Date on Postgres, as text on the embedded database.
      at: new Date(at),
      deliveredThrough: through,
    }));
  }

  /**
   * Records a delivery: each tenant's cursor moves to the seq given and the checkpoint cursor to
   * the id given, never back (a replica that lost its lease mid-batch may report older ones late),
   * and the sink's last delivery is now.
   */
  async delivered(
    sink: AuditSinkKind,
    through: readonly { tenantId: string; seq: number }[],
    checkpointId: bigint | null,
  ): Promise<void> {
    const rows = through.map(({ tenantId, seq }) => Prisma.sql`(${sink}, ${tenantId}::uuid, ${seq}::int)`);
    const moveCursors =
      rows.length === 0
        ? Prisma.empty
        : Prisma.sql`
      WITH moved AS (
        INSERT INTO audit_sink_cursors (sink, tenant_id, delivered_seq) VALUES ${Prisma.join(rows)}
        ON CONFLICT (sink, tenant_id)
        DO UPDATE SET delivered_seq = GREATEST(audit_sink_cursors.delivered_seq, EXCLUDED.delivered_seq)
      )`;
    await this.prisma.$executeRaw`
      ${moveCursors}
      UPDATE audit_sinks
      SET last_delivery_at = clock_timestamp(),
        delivered_checkpoint_id = GREATEST(delivered_checkpoint_id, ${String(checkpointId ?? 0n)}::bigint)
      WHERE sink = ${sink}`;
  }

  async failed(sink: AuditSinkKind, message: string): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE audit_sinks SET last_error = ${message}, last_error_at = clock_timestamp() WHERE sink = ${sink}`;
  }

  /** How far behind the sink is, and how its deliveries went. */
  async state(sink: AuditSinkKind): Promise<SinkState> {
    const [lag] = await this.prisma.$queryRaw<
      { behind: bigint | number | null; oldest: Date | string | null }[]
    >`
      WITH b AS (
        SELECT c.tenant_id, ${DELIVERED_THROUGH} AS after, c.last_seq
        FROM audit_chains c
        LEFT JOIN audit_sink_cursors k ON k.sink = ${sink} AND k.tenant_id = c.tenant_id
        WHERE c.last_seq > ${DELIVERED_THROUGH}
      )
      SELECT sum(b.last_seq - b.after)::bigint AS behind, min(e.at) AS oldest
      FROM b LEFT JOIN audit_events e ON e.tenant_id = b.tenant_id AND e.seq = b.after + 1`;
    const row = await this.prisma.auditSink.findUnique({ where: { sink } });
    return {
      leaseHolder: row?.leaseUntil && row.leaseUntil > new Date() ? row.leaseHolder : null,
      lastDeliveryAt: row?.lastDeliveryAt ?? null,
      lastError: row?.lastError ?? null,
      lastErrorAt: row?.lastErrorAt ?? null,
      eventsBehind: Number(lag?.behind ?? 0),
      // Raw queries answer a timestamp as a Date on Postgres, as text on the embedded database.
      oldestUndeliveredAt: lag?.oldest ? new Date(lag.oldest) : null,
    };
  }
}
