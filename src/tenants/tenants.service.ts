import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuditService } from '../audit/audit.service';
import { WriteTransactions } from '../database/write-transactions';
import type { Actor } from '../auth/principal';
import { createdAtPosition, type Page, toPage } from '../common/pagination';
import { defaultSlugAndTitle, ProblemException } from '../common/problem/problem';
import { onDuplicate } from '../database/database-errors';
import { UNIQUE } from '../database/unique-constraints';
import type { Tenant } from '../generated/prisma/client';
import { CreateTenantDto, TenantListQueryDto, TenantView } from './dto/tenant.dto';
import { viewOf } from '../common/views';
import { TenantsRepository } from './tenants.repository';

@Injectable()
export class TenantsService {
  constructor(
    private readonly tenants: TenantsRepository,
    private readonly audit: AuditService,
    private readonly writes: WriteTransactions,
  ) {}

  async create(input: CreateTenantDto, actor: Actor): Promise<TenantView> {
    // The unique name is the check: a name taken before, or by a create racing this one, is a 409
    // that names the tenant holding it.
    const id = randomUUID();
    return this.writes
      .run(id, async (tx) => {
        const tenant = await this.tenants.insert(tx, id, input.name);
        await this.audit.append(tx, actor, {
          tenantId: tenant.id,
          action: 'tenant.create',
          target: `tenant:${tenant.id}`,
          outcome: 'succeeded',
          httpStatus: 201,
          details: { name: tenant.name },
        });
        return toView(tenant);
      })
      .catch(onDuplicate(UNIQUE.tenantName, () => this.nameTaken(input.name)));
  }

  /** A unique violation means the holder committed, and tenants are never deleted: it is there. */
  private async nameTaken(name: string): Promise<Error> {
    return nameTakenProblem(name, await this.tenants.idOfName(name));
  }

  /** Oldest first, in keyset pages; `name` finds one tenant by its exact name. */
  async list(query: TenantListQueryDto): Promise<Page<TenantView>> {
    const limit = query.limit ?? 50;
    const rows = await this.tenants.page(query.name, query.cursor, limit);
    return toPage(rows, limit, createdAtPosition, toView);
  }
}

function nameTakenProblem(name: string, tenantId: string): ProblemException {
  const [type, title] = defaultSlugAndTitle(409);
  return new ProblemException({
    status: 409,
    type,
    title,
    detail: `A tenant named "${name}" already exists (tenant ${tenantId}).`,
    tenantId,
  });
}

function toView(row: Tenant): TenantView {
  return viewOf(row, ['id', 'name', 'createdAt']);
}
