import { Injectable } from '@nestjs/common';
import type { TableWrite } from '../../audit/audit-events.repository';
import { PrismaService } from '../../database/prisma.service';
import { Prisma, type SecretUse } from '../../generated/prisma/client';
import type { PipePath } from '../../upstream/pipes-api.client';
import type { SecretUseSite } from './secret-references';
import { viewOf } from '../../common/views';

/** One pipe's use of a vault secret, as GET /v1/credentials/{id}/usage lists it. */
export interface SecretUseView {
  pipeId: string;
  organizationId: string;
  serviceId: string;
  path: string;
  historyId: string | null;
  since: Date;
}

/** Where each vault secret is used: pipes created or updated through the gateway with a reference to it. */
@Injectable()
export class SecretUsesRepository {
  constructor(private readonly prisma: PrismaService) {}

  async list(tenantId: string, credentialId: string): Promise<SecretUseView[]> {
    const rows = await this.prisma.secretUse.findMany({
      where: { tenantId, credentialId },
      orderBy: [{ createdAt: 'asc' }, { pipeId: 'asc' }, { path: 'asc' }],
    });
    return rows.map(toView);
  }

  // The writes below go with the audit event of a pipe's create, update or delete, so where a
  // secret is used is recorded exactly when the change is.

  /**
   * After a create or an update: the references it made, and the end of those it replaced (`set`:
   * every field path the body set).
   */
  recorded(
    tenantId: string,
    pipe: PipePath,
    uses: SecretUseSite[],
    set: string[],
    historyId: string | null,
  ): TableWrite[] {
    const now = new Date();
    const referenced = uses.map((use) => use.path);
    const replaced = set.filter((path) => !referenced.includes(path));
    return [
      ...(replaced.length > 0
        ? [
            {
              delete: 'secret_uses' as const,
              where: Prisma.sql`secret_uses.tenant_id = ${tenantId}::uuid AND secret_uses.pipe_id = ${pipe.pipeId}
                AND secret_uses.path IN (SELECT jsonb_array_elements_text(${JSON.stringify(replaced)}::jsonb))`,
            },
          ]
        : []),
      ...uses.map((use): TableWrite => ({
        insert: 'secret_uses',
        values: {
          tenant_id: Prisma.sql`${tenantId}::uuid`,
          credential_id: Prisma.sql`${use.credentialId}::uuid`,
          pipe_id: Prisma.sql`${pipe.pipeId}`,
          organization_id: Prisma.sql`${pipe.organizationId}::uuid`,
          service_id: Prisma.sql`${pipe.serviceId}::uuid`,
          path: Prisma.sql`${use.path}`,
          history_id: Prisma.sql`${historyId}::uuid`,
          created_at: Prisma.sql`${now}`,
          updated_at: Prisma.sql`${now}`,
        },
        onConflict: Prisma.sql`
            ON CONFLICT (credential_id, pipe_id, path)
            DO UPDATE SET updated_at = EXCLUDED.updated_at,
                          history_id = coalesce(EXCLUDED.history_id, secret_uses.history_id)`,
      })),
    ];
  }

  /** After a pipe's delete: it uses nothing any more. */
  deleted(tenantId: string, pipeId: string): TableWrite {
    return {
      delete: 'secret_uses',
      where: Prisma.sql`secret_uses.tenant_id = ${tenantId}::uuid AND secret_uses.pipe_id = ${pipeId}`,
    };
  }
}

function toView(row: SecretUse): SecretUseView {
  return {
    ...viewOf(row, ['pipeId', 'organizationId', 'serviceId', 'path', 'historyId']),
    since: row.createdAt,
  };
}
