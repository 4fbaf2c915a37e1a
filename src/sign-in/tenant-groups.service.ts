import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuditService } from '../audit/audit.service';
import { WriteTransactions } from '../database/write-transactions';
import { createdByOf, type Actor } from '../auth/principal';
import { createdAtPosition, type Page, toPage } from '../common/pagination';
import { problemFor } from '../common/problem/problem';
import { viewOf } from '../common/views';
import { onDuplicate } from '../database/database-errors';
import { UNIQUE } from '../database/unique-constraints';
import type { TenantGroup } from '../generated/prisma/client';
import { TenantsRepository } from '../tenants/tenants.repository';
import { AssignGroupDto, TenantGroupView } from './dto/tenant-group.dto';
import { assignedElsewhere, groupAssigned } from './group-assignment';
import { GroupMappingsService } from './group-mappings.service';
import { TenantGroupsRepository } from './tenant-groups.repository';

/** The platform's assignment of identity-provider groups to tenants, one tenant per group. */
@Injectable()
export class TenantGroupsService {
  constructor(
    private readonly groups: TenantGroupsRepository,
    private readonly tenants: TenantsRepository,
    private readonly mappings: GroupMappingsService,
    private readonly audit: AuditService,
    private readonly writes: WriteTransactions,
  ) {}

  async assign(tenantId: string, input: AssignGroupDto, actor: Actor): Promise<TenantGroupView> {
    // The unique group is the check: assigned before, or by a request racing this one, it is a 409.
    const row = await this.writes
      .run(tenantId, async (tx) => {
        if (!(await this.tenants.exists(tx, tenantId)))
          throw problemFor(404, `Tenant ${tenantId} does not exist.`);
        const created = await this.groups.insert(tx, {
          id: randomUUID(),
          tenantId,
          group: input.group,
          createdBy: createdByOf(actor),
        });
        await this.audit.append(tx, actor, groupAssigned(tenantId, created.id, input.group));
        return created;
      })
      .catch(onDuplicate(UNIQUE.tenantGroup, () => this.alreadyAssigned(tenantId, input.group)));
    // A mapping the tenant kept of the group from before groups were assigned counts from now on.
    this.mappings.forgetRoles();
    return toView(row);
  }

  private async alreadyAssigned(tenantId: string, group: string): Promise<Error> {
    const owner = await this.groups.ofGroup(group);
    if (owner && owner.tenantId !== tenantId) return assignedElsewhere(group, owner);
    // Gone again already when it was unassigned in the meantime.
    const which = owner ? ` (assignment ${owner.id})` : '';
    return problemFor(409, `The group "${group}" is already assigned to this tenant${which}.`);
  }

  async list(tenantId: string, cursor: string | undefined, limit = 50): Promise<Page<TenantGroupView>> {
    const rows = await this.groups.page(tenantId, cursor, limit);
    return toPage(rows, limit, createdAtPosition, toView);
  }

  /** Unassigns the group: the tenant's mapping of it goes too, so its members lose those roles. */
  async unassign(tenantId: string, id: string, actor: Actor): Promise<void> {
    await this.writes.run(tenantId, async (tx) => {
      const existing = await this.groups.find(tx, tenantId, id);
      if (!existing) throw problemFor(404, `Group assignment ${id} does not exist in this tenant.`);
      await this.groups.delete(tx, id);
      await this.mappings.removeGroup(tx, tenantId, existing.group, actor);
      await this.audit.append(tx, actor, {
        tenantId,
        action: 'group.unassign',
        target: `group:${id}`,
        outcome: 'succeeded',
        httpStatus: 204,
        details: { group: existing.group },
      });
    });
    this.mappings.forgetRoles();
  }
}

function toView(row: TenantGroup): TenantGroupView {
  return viewOf(row, ['id', 'group', 'createdAt']);
}
