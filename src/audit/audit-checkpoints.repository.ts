import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client';
import { PrismaService } from '../database/prisma.service';
import { type ChainHead, sinksTable } from './audit-events.repository';

/** A checkpoint as kept: `id` orders them as they were signed, a cursor to read on after. */
export interface StoredCheckpoint {
  id: bigint;
  tenantId: string;
  seq: number;
  digest: string;
  at: Date;
  kid: string;
  /** The compact JWS (EdDSA) over {tenantId, seq, digest, at}. */
  jws: string;
}

/** The SQL of the audit_checkpoints table: the checkpoints signed with AUDIT_SIGNING_KEYS. */
@Injectable()
export class AuditCheckpointsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async store(checkpoint: Omit<StoredCheckpoint, 'id'>): Promise<void> {
    await this.prisma.auditCheckpoint.create({ data: checkpoint });
  }

  /** The tenant's kept checkpoint furthest along its chain, if any. */
  newest(tenantId: string): Promise<StoredCheckpoint | null> {
    return this.prisma.auditCheckpoint.findFirst({
      where: { tenantId },
      orderBy: [{ seq: 'desc' }, { id: 'desc' }],
    });
  }

  /** Up to `limit` checkpoints signed after the one with id `after` (0n: from the first), oldest first. */
  after(after: bigint, limit: number): Promise<StoredCheckpoint[]> {
    return this.prisma.auditCheckpoint.findMany({
      where: { id: { gt: after } },
      orderBy: { id: 'asc' },
      take: limit,
    });
  }

  /**
   * The heads of the chains that moved past their newest checkpoint (or have none), with their
   * digest: a head whose digest is not computed yet waits for it.
   */
  movedHeads(): Promise<Array<ChainHead & { tenantId: string; digest: string }>> {
    return this.prisma.$queryRaw`
      SELECT c.tenant_id::text AS "tenantId", c.last_seq AS seq, c.last_hash AS hash, e.digest
      FROM audit_chains c
      JOIN audit_events e ON e.tenant_id = c.tenant_id AND e.seq = c.last_seq
      WHERE e.digest IS NOT NULL
        AND NOT EXISTS (
          SELECT 1 FROM audit_checkpoints k WHERE k.tenant_id = c.tenant_id AND k.seq >= c.last_seq)`;
  }

  /**
   * Deletes the checkpoints below their chain's start, which sign only events retention removed,
   * except those one of the audit `sinks` has yet to deliver. Answers how many went.
   */
  pruneBelowChainStarts(sinks: readonly string[]): Promise<number> {
    // Each sink delivers checkpoints in id order: it has delivered every one up to its cursor.
    const delivered =
      sinks.length === 0
        ? Prisma.empty
        : Prisma.sql`AND k.id <= (
            SELECT min(COALESCE(a.delivered_checkpoint_id, 0)) FROM ${sinksTable(sinks)}
            LEFT JOIN audit_sinks a ON a.sink = s.sink)`;
    return this.prisma.$executeRaw`
      DELETE FROM audit_checkpoints k USING audit_chains c
      WHERE c.tenant_id = k.tenant_id AND k.seq < c.start_seq ${delivered}`;
  }
}
