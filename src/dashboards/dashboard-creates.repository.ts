import { Injectable } from '@nestjs/common';
import type { TableWrite } from '../audit/audit-events.repository';
import { IDEMPOTENCY_WINDOW_MS, type EarlierRequest, type StoredResponse } from '../common/idempotency';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';
import { redactSecrets } from '../redaction/redact';

const OPERATION = 'dashboard.create';

/** A dashboard create sent with an Idempotency-Key, as first recorded. */
export type RecordedCreate = Omit<EarlierRequest, 'sameRequest'> & { fingerprint: string };

/** Dashboard creates sent with an Idempotency-Key: the first answer, replayed for 24 hours. */
@Injectable()
export class DashboardCreatesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The earlier create under this key within 24 h, or null. An expired key is released. */
  async find(tenantId: string, key: string): Promise<RecordedCreate | null> {
    const where = { tenantId_operation_key: { tenantId, operation: OPERATION, key } };
    const row = await this.prisma.idempotentRequest.findUnique({ where });
    if (row === null) return null;
    if (row.createdAt.getTime() < Date.now() - IDEMPOTENCY_WINDOW_MS) {
      await this.prisma.idempotentRequest.deleteMany({ where: where.tenantId_operation_key });
      return null;
    }
    return {
      fingerprint: row.fingerprint,
      outcome: row.outcome as RecordedCreate['outcome'],
      response: row.response as StoredResponse | null,
      createdAt: row.createdAt,
    };
  }

  // The writes below go with the audit event of the same step (AuditService.append). A second
  // create racing for the key fails the pending one on the primary key.

  pending(tenantId: string, key: string, fingerprint: string): TableWrite {
    return {
      insert: 'idempotent_requests',
      values: {
        tenant_id: Prisma.sql`${tenantId}::uuid`,
        operation: Prisma.sql`${OPERATION}`,
        key: Prisma.sql`${key}`,
        fingerprint: Prisma.sql`${fingerprint}`,
      },
    };
  }

  completed(tenantId: string, key: string, succeeded: boolean, response: StoredResponse): TableWrite {
    return {
      update: 'idempotent_requests',
      set: {
        outcome: Prisma.sql`${succeeded ? 'succeeded' : 'failed'}`,
        response: Prisma.sql`${JSON.stringify(redactSecrets(response))}::jsonb`,
        completed_at: Prisma.sql`${new Date()}`,
      },
      where: Prisma.sql`idempotent_requests.tenant_id = ${tenantId}::uuid
        AND idempotent_requests.operation = ${OPERATION} AND idempotent_requests.key = ${key}`,
    };
  }
}
