import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuditService } from '../audit/audit.service';
import { WriteTransactions } from '../database/write-transactions';
import { createdByOf, type Actor } from '../auth/principal';
import { assertMayGrant, type Grantor } from '../auth/role-grants';
import type { Role } from '../auth/roles';
import { createdAtPosition, Page, toPage } from '../common/pagination';
import { problemFor, ProblemException } from '../common/problem/problem';
import { onDuplicate } from '../database/database-errors';
import { UNIQUE } from '../database/unique-constraints';
import type { PrismaTx } from '../database/prisma.service';
import type { GroupMapping } from '../generated/prisma/client';
import { TenantsRepository } from '../tenants/tenants.repository';
import { GroupMappingsRepository } from './group-mappings.repository';
import { assignedElsewhere, groupAssigned, groupNotAssigned } from './group-assignment';
import { TenantGroupsRepository } from './tenant-groups.repository';
import { CreateGroupMappingDto, GroupMappingView } from './dto/group-mapping.dto';
import { viewOf } from '../common/views';

interface CachedRoles {
  byTenant: Map<string, Role[]>;
  expiresAt: number;
}

// A user's tenants and roles are looked up per request, so they are cached briefly. A change on
// this replica clears the cache at once; other replicas see it within this time.
const ROLES_CACHE_TTL_MS = 2_000;
const MAX_CACHED_GROUP_SETS = 10_000;

/**
 * Which groups of signed-in users get which roles in a tenant. A mapping counts only while its
 * group is assigned to its tenant (tenant_groups), so no tenant can give roles to another's people.
 */
@Injectable()
export class GroupMappingsService implements OnApplicationBootstrap {
  private readonly logger = new Logger(GroupMappingsService.name);
  private readonly cache = new Map<string, CachedRoles>();

  constructor(
    private readonly mappings: GroupMappingsRepository,
    private readonly groups: TenantGroupsRepository,
    private readonly tenants: TenantsRepository,
    private readonly audit: AuditService,
    private readonly writes: WriteTransactions,
  ) {}

  /** Counts, once at start, the mappings that give nothing: kept when their group went to another tenant. */
  async onApplicationBootstrap(): Promise<void> {
    const inert = await this.mappings.countInert();
    if (inert === 0) return;
    this.logger.warn(
      { inertGroupMappings: inert },
      `${inert} group mapping(s) name a group that is not assigned to their tenant and give no roles ` +
        '(docs/sign-in.md, "Groups belong to tenants")',
    );
  }

  async create(
    tenantId: string,
    input: CreateGroupMappingDto,
    actor: Actor,
    grantor: Grantor,
  ): Promise<GroupMappingView> {
    assertMayGrant(grantor, input.roles);
    // The unique group is the check: mapped before, or by a create racing this one, it is a 409.
    const row = await this.writes
      .run(tenantId, async (tx) => {
        if (!(await this.tenants.exists(tx, tenantId)))
          throw problemFor(404, `Tenant ${tenantId} does not exist.`);
        await this.assertAssigned(tx, tenantId, input.group, actor, grantor);
        const created = await this.mappings.insert(tx, {
          id: randomUUID(),
          tenantId,
          group: input.group,
          roles: input.roles,
          createdBy: createdByOf(actor),
        });
        await this.audit.append(tx, actor, {
          tenantId,
          action: 'group-mapping.create',
          target: `group-mapping:${created.id}`,
          outcome: 'succeeded',
          httpStatus: 201,
          details: { group: input.group, roles: input.roles },
        });
        return created;
      })
      .catch(onDuplicate(UNIQUE.groupMapping, () => this.alreadyMapped(tenantId, input.group)));
    this.forgetRoles();
    return toView(row);
  }

  /**
   * Refuses (403) a tenant's mapping of a group the platform did not assign to it. The platform's
   * own mapping of a free group assigns it (audited as `group.assign`); one assigned elsewhere is a 409.
   */
  private async assertAssigned(
    tx: PrismaTx,
    tenantId: string,
    group: string,
    actor: Actor,
    grantor: Grantor,
  ): Promise<void> {
    const owner = await this.groups.ofGroup(group, tx);
    if (owner?.tenantId === tenantId) return;
    if (grantor.kind !== 'platform') throw groupNotAssigned(group, tenantId);
    if (owner) throw assignedElsewhere(group, owner);
    const id = randomUUID();
    if (await this.groups.insertIfFree(tx, { id, tenantId, group, createdBy: createdByOf(actor) })) {
      await this.audit.append(tx, actor, groupAssigned(tenantId, id, group));
      return;
    }
    // Assigned by a request that committed in between: to this tenant it is no conflict.
    const winner = await this.groups.ofGroup(group, tx);
    if (winner && winner.tenantId !== tenantId) throw assignedElsewhere(group, winner);
  }

  private async alreadyMapped(tenantId: string, group: string): Promise<ProblemException> {
    const existing = await this.mappings.idOfGroup(tenantId, group);
    // Gone again already when its creator deleted it in the meantime.
    const which = existing ? ` (mapping ${existing.id})` : '';
    return problemFor(
      409,
      `The group "${group}" is already mapped in this tenant${which}; delete it to change its roles.`,
    );
  }

  async list(tenantId: string, cursor: string | undefined, limit = 50): Promise<Page<GroupMappingView>> {
    const rows = await this.mappings.page(tenantId, cursor, limit);
    return toPage(rows, limit, createdAtPosition, toView);
  }

  async remove(tenantId: string, id: string, actor: Actor): Promise<void> {
    await this.writes.run(tenantId, async (tx) => {
      const existing = await this.mappings.find(tx, tenantId, id);
      if (!existing) throw problemFor(404, `Group mapping ${id} does not exist.`);
      await this.deleteMapping(tx, existing, actor);
    });
    this.forgetRoles();
  }

  /** Deletes the tenant's mapping of `group`, if any, in `tx`: the group is no longer the tenant's. */
  async removeGroup(tx: PrismaTx, tenantId: string, group: string, actor: Actor): Promise<void> {
    const existing = await this.mappings.ofGroupIn(tx, tenantId, group);
    if (existing) await this.deleteMapping(tx, existing, actor);
  }

  private async deleteMapping(tx: PrismaTx, mapping: GroupMapping, actor: Actor): Promise<void> {
    await this.mappings.delete(tx, mapping.id);
    await this.audit.append(tx, actor, {
      tenantId: mapping.tenantId,
      action: 'group-mapping.delete',
      target: `group-mapping:${mapping.id}`,
      outcome: 'succeeded',
      httpStatus: 204,
      details: { group: mapping.group, roles: mapping.roles },
    });
  }

  /** Drops this replica's cached roles after a change of mappings or assignments. */
  forgetRoles(): void {
    this.cache.clear();
  }

  /**
   * The tenants `groups` give roles in, each with the union of their roles there: only mappings
   * whose group is assigned to the mapping's tenant count.
   */
  async rolesByTenant(groups: readonly string[]): Promise<Map<string, Role[]>> {
    if (groups.length === 0) return new Map();
    const cacheKey = JSON.stringify([...new Set(groups)].sort());
    const now = Date.now();
    const cached = this.cache.get(cacheKey);
    if (cached && cached.expiresAt > now) return cached.byTenant;
    const [rows, owners] = await Promise.all([this.mappings.ofGroups(groups), this.groups.owners(groups)]);
    const byTenant = new Map<string, Role[]>();
    for (const row of rows) {
      if (owners.get(row.group) !== row.tenantId) continue;
      byTenant.set(row.tenantId, [...new Set([...(byTenant.get(row.tenantId) ?? []), ...row.roles])]);
    }
    if (this.cache.size >= MAX_CACHED_GROUP_SETS) this.cache.clear();
    this.cache.set(cacheKey, { byTenant, expiresAt: now + ROLES_CACHE_TTL_MS });
    return byTenant;
  }
}

function toView(row: GroupMapping): GroupMappingView {
  return viewOf(row, ['id', 'group', 'roles', 'createdAt']);
}
