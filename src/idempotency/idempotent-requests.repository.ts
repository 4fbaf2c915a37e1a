import { Injectable } from '@nestjs/common';
import type { AuditAction } from '../audit/audit-actions';
import type { TableWrite } from '../audit/audit-events.repository';
import { PrismaService } from '../database/prisma.service';
import { Prisma, type IdempotentRequest } from '../generated/prisma/client';

/** Which create a key belongs to: a key is the caller's per tenant and per operation. */
export interface IdempotencyKeyOf {
  tenantId: string;
  /** The audit action of the create: pipe.create, dashboard.create. */
  operation: AuditAction;
  key: string;
}

/** The idempotent_requests table: each create sent with an Idempotency-Key, and its first answer. */
@Injectable()
export class IdempotentRequestsRepository {
  constructor(private readonly prisma: PrismaService) {}

  find({ tenantId, operation, key }: IdempotencyKeyOf): Promise<IdempotentRequest | null> {
    return this.prisma.idempotentRequest.findUnique({
      where: { tenantId_operation_key: { tenantId, operation, key } },
    });
  }

  async release({ tenantId, operation, key }: IdempotencyKeyOf): Promise<void> {
    await this.prisma.idempotentRequest.deleteMany({ where: { tenantId, operation, key } });
  }

  // The writes below go with the audit event of the same step (AuditService.append). A second
  // create racing for the key fails the pending one on the primary key.

  pending(
    { tenantId, operation, key }: IdempotencyKeyOf,
    fingerprint: string,
    recordId: string | null,
  ): TableWrite {
    return {
      insert: 'idempotent_requests',
      values: {
        tenant_id: Prisma.sql`${tenantId}::uuid`,
        operation: Prisma.sql`${operation}`,
        key: Prisma.sql`${key}`,
        fingerprint: Prisma.sql`${fingerprint}`,
        record_id: Prisma.sql`${recordId}::uuid`,
      },
    };
  }

  /** `response` is the stored answer as JSON text. */
  completed(
    { tenantId, operation, key }: IdempotencyKeyOf,
    succeeded: boolean,
    response: string,
  ): TableWrite {
    return {
      update: 'idempotent_requests',
      set: {
        outcome: Prisma.sql`${succeeded ? 'succeeded' : 'failed'}`,
        response: Prisma.sql`${response}::jsonb`,
        completed_at: Prisma.sql`${new Date()}`,
      },
      where: Prisma.sql`idempotent_requests.tenant_id = ${tenantId}::uuid
        AND idempotent_requests.operation = ${operation} AND idempotent_requests.key = ${key}`,
    };
  }
}
