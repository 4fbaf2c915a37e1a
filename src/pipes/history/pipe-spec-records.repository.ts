import { Injectable } from '@nestjs/common';
import type { TableWrite } from '../../audit/audit-events.repository';
import type { Actor } from '../../auth/principal';
import { createdAtKeyset } from '../../common/pagination';
import { PrismaService, PrismaTx } from '../../database/prisma.service';
import { Prisma, type PipeSpecOutcome, type PipeSpecRecord } from '../../generated/prisma/client';

/** A create spec about to be sent, as its record first stands. */
export interface NewSpecRecord {
  id: string;
  tenantId: string;
  organizationId: string;
  serviceId: string;
  /** The canonical JSON of the spec with its secrets redacted, and its hash. */
  text: string;
  specHash: string;
  resubmittedFrom: string | null;
}

/** Which records a history page shows. */
export interface SpecRecordFilter {
  tenantId: string;
  from?: Date;
  to?: Date;
  organizationId?: string;
  serviceId?: string;
  outcome?: PipeSpecOutcome;
  /** The actor, or whom they acted for. */
  actor?: string;
}

/** A record left pending by an interrupted request. */
export type StaleRecord = Pick<PipeSpecRecord, 'id' | 'tenantId' | 'organizationId' | 'serviceId'>;

/** The pipe_spec_records table: the create specs submitted, redacted, and how each create ended. */
@Injectable()
export class PipeSpecRecordsRepository {
  constructor(private readonly prisma: PrismaService) {}

  find(tenantId: string, id: string): Promise<PipeSpecRecord | null> {
    return this.prisma.pipeSpecRecord.findFirst({ where: { id, tenantId } });
  }

  /** One page in the order of `createdAtKeyset`, one row more than `limit` to tell whether more follow. */
  page(filter: SpecRecordFilter, cursor: string | undefined, limit: number): Promise<PipeSpecRecord[]> {
    const keyset = createdAtKeyset(cursor, 'desc');
    const createdAt: Prisma.DateTimeFilter = {};
    if (filter.from) createdAt.gte = filter.from;
    if (filter.to) createdAt.lt = filter.to;
    return this.prisma.pipeSpecRecord.findMany({
      where: {
        tenantId: filter.tenantId,
        ...(filter.from || filter.to ? { createdAt } : {}),
        ...(filter.organizationId ? { organizationId: filter.organizationId } : {}),
        ...(filter.serviceId ? { serviceId: filter.serviceId } : {}),
        ...(filter.outcome ? { outcome: filter.outcome } : {}),
        ...(filter.actor ? { OR: [{ actor: filter.actor }, { onBehalfOf: filter.actor }] } : {}),
        AND: [keyset.where],
      },
      orderBy: keyset.orderBy,
      take: limit + 1,
    });
  }

  /** Records still pending that were created before `before`, a bounded number at a time. */
  stalePending(before: Date, take: number): Promise<StaleRecord[]> {
    return this.prisma.pipeSpecRecord.findMany({
      where: { outcome: 'pending', createdAt: { lt: before } },
      select: { id: true, tenantId: true, organizationId: true, serviceId: true },
      take,
    });
  }

  /** Marks a pending record `unknown`; false, with nothing written, when another process marked it first. */
  async markUnknown(tx: PrismaTx, id: string): Promise<boolean> {
    const { count } = await tx.pipeSpecRecord.updateMany({
      where: { id, outcome: 'pending' },
      data: { outcome: 'unknown', completedAt: new Date() },
    });
    return count > 0;
  }

  // The writes below go with the audit event of the same step (AuditService.append).

  /** The record of a create about to be sent: outcome `pending`, the redacted spec. */
  pending(record: NewSpecRecord, actor: Actor): TableWrite {
    return {
      insert: 'pipe_spec_records',
      values: {
        id: Prisma.sql`${record.id}::uuid`,
        tenant_id: Prisma.sql`${record.tenantId}::uuid`,
        key_id: Prisma.sql`${actor.keyId}::uuid`,
        actor: Prisma.sql`${actor.actor}`,
        on_behalf_of: Prisma.sql`${actor.onBehalfOf}`,
        organization_id: Prisma.sql`${record.organizationId}::uuid`,
        service_id: Prisma.sql`${record.serviceId}::uuid`,
        spec: Prisma.sql`${record.text}::jsonb`,
        spec_hash: Prisma.sql`${record.specHash}`,
        resubmitted_from: Prisma.sql`${record.resubmittedFrom}::uuid`,
        request_id: Prisma.sql`${actor.requestId}`,
      },
    };
  }

  /** `response` is the stored answer as JSON text. */
  succeeded(
    id: string,
    outcome: {
      pipeId: string | null;
      upstreamRequestId: string | null;
      upstreamStatus: number;
    },
  ): TableWrite {
    return {
      update: 'pipe_spec_records',
      set: {
        outcome: Prisma.sql`'succeeded'`,
        pipe_id: Prisma.sql`${outcome.pipeId}`,
        upstream_request_id: Prisma.sql`${outcome.upstreamRequestId}`,
        upstream_status: Prisma.sql`${outcome.upstreamStatus}::int`,
        completed_at: Prisma.sql`${new Date()}`,
      },
      where: Prisma.sql`pipe_spec_records.id = ${id}::uuid`,
    };
  }

  /** `error` is the problem answered, as JSON text. */
  failed(id: string, failure: { upstreamStatus: number | null; error: string }): TableWrite {
    return {
      update: 'pipe_spec_records',
      set: {
        outcome: Prisma.sql`'failed'`,
        upstream_status: Prisma.sql`${failure.upstreamStatus}::int`,
        error: Prisma.sql`${failure.error}::jsonb`,
        completed_at: Prisma.sql`${new Date()}`,
      },
      where: Prisma.sql`pipe_spec_records.id = ${id}::uuid`,
    };
  }

  /** Marks the create specs of a pipe just deleted upstream. */
  pipeDeleted(tenantId: string, pipeId: string): TableWrite {
    return {
      update: 'pipe_spec_records',
      set: { deleted_at: Prisma.sql`${new Date()}` },
      where: Prisma.sql`pipe_spec_records.tenant_id = ${tenantId}::uuid AND pipe_spec_records.pipe_id = ${pipeId}`,
    };
  }
}
