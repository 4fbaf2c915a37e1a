import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { ChainHead } from './audit-events.repository';

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
}
