import { auditEventHash, GENESIS_HASH } from '../../src/audit/audit-chain';
import { AuditChainKeys } from '../../src/crypto/audit-chain-keys';
import { PrismaService } from '../../src/database/prisma.service';
import type { AuditEvent } from '../../src/generated/prisma/client';
import type { TestGateway } from './gateway';

/**
 * What a database writer who does not hold AUDIT_CHAIN_KEYS can do to a tenant's audit chain,
 * straight on its rows.
 */
export type AuditTampering = ReturnType<typeof auditTampering>;

export function auditTampering(gateway: TestGateway) {
  const prisma = gateway.app.get(PrismaService);
  return {
    events: (tenantId: string) =>
      prisma.auditEvent.findMany({ where: { tenantId }, orderBy: { seq: 'asc' } }),

    /** Stores `rows` (their hashes, links, key versions, content) over the tenant's rows, and moves the head. */
    async rewrite(tenantId: string, rows: AuditEvent[]): Promise<void> {
      for (const row of rows) {
        await prisma.auditEvent.update({
          where: { tenantId_seq: { tenantId, seq: row.seq } },
          data: { outcome: row.outcome, prevHash: row.prevHash, hash: row.hash, chainKey: row.chainKey },
        });
      }
      const last = rows[rows.length - 1];
      await prisma.auditChain.update({
        where: { tenantId },
        data: { lastSeq: last.seq, lastHash: last.hash },
      });
    },

    /**
     * The tenant's events with every hash from event `seq` on recomputed with plain SHA-256, as one
     * without the chain key can; `edit` changes that event's outcome first, `asLegacy` drops the key
     * versions.
     */
    rehashedFrom(rows: AuditEvent[], seq: number, { edit = false, asLegacy = false } = {}): AuditEvent[] {
      const keys = gateway.app.get(AuditChainKeys);
      let prevHash = seq === 1 ? GENESIS_HASH : rows[seq - 2].hash;
      return rows.map((row) => {
        if (row.seq < seq) return row;
        const content = { ...row, outcome: edit && row.seq === seq ? 'failed' : row.outcome, prevHash };
        const hash = auditEventHash({ ...content, details: content.details ?? undefined }, keys, null)!;
        prevHash = hash;
        return { ...content, hash, chainKey: asLegacy ? null : row.chainKey };
      });
    },
  };
}
