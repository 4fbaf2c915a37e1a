import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client';
import type { Actor } from '../auth/principal';
import { PrismaService, PrismaTx } from '../database/prisma.service';
import { redactSecrets } from '../redaction/redact';
import { auditEventHash, GENESIS_HASH } from './audit-chain';

export type AuditOutcome = 'succeeded' | 'failed' | 'denied' | 'pending';

export interface AuditEntry {
  tenantId: string;
  action: string;
  target?: string | null;
  outcome: AuditOutcome;
  httpStatus?: number | null;
  details?: Record<string, unknown>;
}

/**
 * Appends to a tenant's hash chain. Callers pass their own transaction so the event commits
 * with the change it records, or neither does.
 */
@Injectable()
export class AuditService {
  constructor(private readonly prisma: PrismaService) {}

  async append(tx: PrismaTx, actor: Actor, entry: AuditEntry): Promise<{ seq: number; hash: string }> {
    // The chain row is the per-tenant lock: concurrent appenders queue here, so seq has no gaps.
    await tx.$executeRaw`
      INSERT INTO audit_chains (tenant_id, last_seq, last_hash, start_seq, start_hash)
      VALUES (${entry.tenantId}::uuid, 0, ${GENESIS_HASH}, 1, ${GENESIS_HASH})
      ON CONFLICT (tenant_id) DO NOTHING`;
    const [chain] = await tx.$queryRaw<{ last_seq: number; last_hash: string }[]>`
      SELECT last_seq, last_hash FROM audit_chains WHERE tenant_id = ${entry.tenantId}::uuid FOR UPDATE`;

    const event = {
      tenantId: entry.tenantId,
      seq: chain.last_seq + 1,
      at: new Date(),
      actor: actor.actor,
      onBehalfOf: actor.onBehalfOf,
      action: entry.action,
      target: entry.target ?? null,
      requestId: actor.requestId,
      outcome: entry.outcome,
      httpStatus: entry.httpStatus ?? null,
      details: entry.details ? (redactSecrets(entry.details) as Prisma.InputJsonObject) : null,
      prevHash: chain.last_hash,
    };
    const hash = auditEventHash(event);
    await tx.auditEvent.create({
      data: { ...event, details: event.details ?? Prisma.DbNull, hash },
    });
    await tx.auditChain.update({
      where: { tenantId: entry.tenantId },
      data: { lastSeq: event.seq, lastHash: hash },
    });
    return { seq: event.seq, hash };
  }

  /** For events that accompany no other write (e.g. a credential refused upstream). */
  async record(actor: Actor, entry: AuditEntry): Promise<void> {
    await this.prisma.$transaction((tx) => this.append(tx, actor, entry));
  }
}
