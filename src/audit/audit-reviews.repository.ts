import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { SqlRunner } from './audit-events.repository';

/** An `audit.review` event, as stored. */
export interface StoredReview {
  seq: number;
  at: Date;
  actor: string;
  onBehalfOf: string | null;
  details: unknown;
}

/** Where a chain starts and ends, its latest review, and the reviews made since that one's range. */
export interface ReviewState {
  startSeq: number;
  lastSeq: number;
  latest: StoredReview | null;
  reviewsSince: number;
}

/** The SQL of audit reviews: `audit.review` events of the audit_events table. */
@Injectable()
export class AuditReviewsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The tenant's newest review, read in `db`. */
  async latest(db: SqlRunner, tenantId: string): Promise<StoredReview | null> {
    const [review] = await db.$queryRaw<StoredReview[]>`
      SELECT seq, at, actor, on_behalf_of AS "onBehalfOf", details FROM audit_events
      WHERE tenant_id = ${tenantId}::uuid AND action = 'audit.review'
      ORDER BY seq DESC LIMIT 1`;
    return review ?? null;
  }

  /** The public digest of the tenant's event at `seq`, read in `db`; null when it has none. */
  async digestAt(db: SqlRunner, tenantId: string, seq: number): Promise<string | null> {
    const [event] = await db.$queryRaw<{ digest: string | null }[]>`
      SELECT digest FROM audit_events WHERE tenant_id = ${tenantId}::uuid AND seq = ${seq}::int`;
    return event?.digest ?? null;
  }

  /** In one statement, so the counts agree with each other; null for a tenant with no chain yet. */
  async state(tenantId: string): Promise<ReviewState | null> {
    const [row] = await this.prisma.$queryRaw<
      {
        startSeq: number;
        lastSeq: number;
        seq: number | null;
        at: Date | null;
        actor: string | null;
        onBehalfOf: string | null;
        details: unknown;
        reviewsSince: number;
      }[]
    >`
      WITH latest AS (
        SELECT seq, at, actor, on_behalf_of, details FROM audit_events
        WHERE tenant_id = ${tenantId}::uuid AND action = 'audit.review'
        ORDER BY seq DESC LIMIT 1
      )
      SELECT c.start_seq AS "startSeq", c.last_seq AS "lastSeq", l.seq, l.at, l.actor,
             l.on_behalf_of AS "onBehalfOf", l.details,
             (SELECT count(*) FROM audit_events r
              WHERE r.tenant_id = c.tenant_id AND r.action = 'audit.review'
                AND r.seq > coalesce((l.details->>'throughSeq')::int, 0))::int AS "reviewsSince"
      FROM audit_chains c LEFT JOIN latest l ON true
      WHERE c.tenant_id = ${tenantId}::uuid`;
    if (!row) return null;
    const { startSeq, lastSeq, reviewsSince, seq, at, actor, onBehalfOf, details } = row;
    const latest = seq === null ? null : { seq, at: at!, actor: actor!, onBehalfOf, details };
    return { startSeq, lastSeq, latest, reviewsSince };
  }
}
