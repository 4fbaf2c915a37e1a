import { Injectable } from '@nestjs/common';
import { problemFor } from '../common/problem/problem';
import { PrismaService } from '../database/prisma.service';
import { Prisma, type SecretUse } from '../generated/prisma/client';
import type { PipePath } from '../upstream/pipes-api.client';
import type { SecretUseSite } from './secret-references';
import { viewOf } from '../common/views';

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
    const credential = await this.prisma.credential.findFirst({
      where: { id: credentialId, tenantId },
      select: { kind: true },
    });
    if (!credential) throw problemFor(404, `Credential ${credentialId} does not exist.`);
    const rows = await this.prisma.secretUse.findMany({
      where: { tenantId, credentialId },
      orderBy: [{ createdAt: 'asc' }, { pipeId: 'asc' }, { path: 'asc' }],
    });
    return rows.map(toView);
  }

  // The writes below go with the audit event of a pipe's create, update or delete (they read FROM
  // appended), so where a secret is used is recorded exactly when the change is.

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
  ): Prisma.Sql[] {
    const now = new Date();
    const referenced = uses.map((use) => use.path);
    const replaced = set.filter((path) => !referenced.includes(path));
    return [
      ...(replaced.length > 0
        ? [
            Prisma.sql`
              DELETE FROM secret_uses USING appended
              WHERE secret_uses.tenant_id = ${tenantId}::uuid AND secret_uses.pipe_id = ${pipe.pipeId}
                AND secret_uses.path = ANY(${replaced}::text[])`,
          ]
        : []),
      ...uses.map(
        (use) => Prisma.sql`
          INSERT INTO secret_uses (tenant_id, credential_id, pipe_id, organization_id, service_id, path, history_id,
                                   created_at, updated_at)
          SELECT ${tenantId}::uuid, ${use.credentialId}::uuid, ${pipe.pipeId}, ${pipe.organizationId}::uuid,
                 ${pipe.serviceId}::uuid, ${use.path}, ${historyId}::uuid, ${now}, ${now}
          FROM appended
          ON CONFLICT (credential_id, pipe_id, path)
          DO UPDATE SET updated_at = EXCLUDED.updated_at,
                        history_id = coalesce(EXCLUDED.history_id, secret_uses.history_id)`,
      ),
    ];
  }

  /** After a pipe's delete: it uses nothing any more. */
  deleted(tenantId: string, pipeId: string): Prisma.Sql {
    return Prisma.sql`
      DELETE FROM secret_uses USING appended
      WHERE secret_uses.tenant_id = ${tenantId}::uuid AND secret_uses.pipe_id = ${pipeId}`;
  }
}

function toView(row: SecretUse): SecretUseView {
  return {
    ...viewOf(row, ['pipeId', 'organizationId', 'serviceId', 'path', 'historyId']),
    since: row.createdAt,
  };
}
