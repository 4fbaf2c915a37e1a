import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuditService } from '../audit/audit.service';
import type { Actor } from '../auth/principal';
import { problemFor } from '../common/problem/problem';
import { onDuplicate } from '../database/database-errors';
import { PrismaService } from '../database/prisma.service';
import { UNIQUE } from '../database/unique-constraints';
import { CreateTenantDto, TenantView } from './dto/tenant.dto';

@Injectable()
export class TenantsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditService,
  ) {}

  async create(input: CreateTenantDto, actor: Actor): Promise<TenantView> {
    // The unique name is the check: a name taken before, or by a create racing this one, is a 409.
    const id = randomUUID();
    return this.audit
      .transaction(id, async (tx) => {
        const tenant = await tx.tenant.create({ data: { id, name: input.name } });
        await this.audit.append(tx, actor, {
          tenantId: tenant.id,
          action: 'tenant.create',
          target: `tenant:${tenant.id}`,
          outcome: 'succeeded',
          httpStatus: 201,
          details: { name: tenant.name },
        });
        return { id: tenant.id, name: tenant.name, createdAt: tenant.createdAt };
      })
      .catch(
        onDuplicate(UNIQUE.tenantName, () =>
          problemFor(409, `A tenant named "${input.name}" already exists.`),
        ),
      );
  }
}
