import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuditService } from '../audit/audit.service';
import type { Actor } from '../auth/principal';
import { assertMayGrant, type Grantor } from '../auth/role-grants';
import type { Role } from '../auth/roles';
import { createdAtPosition, Page, toPage } from '../common/pagination';
import { problemFor, ProblemException } from '../common/problem/problem';
import { onDuplicate } from '../database/database-errors';
import { UNIQUE } from '../database/unique-constraints';
import type { GroupMapping } from '../generated/prisma/client';
import { TenantsRepository } from '../tenants/tenants.repository';
import { GroupMappingsRepository } from './group-mappings.repository';
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

/** Which groups of signed-in users get which roles in a tenant. */
@Injectable()
export class GroupMappingsService {
  private readonly cache = new Map<string, CachedRoles>();

  constructor(
    private readonly mappings: GroupMappingsRepository,
    private readonly tenants: TenantsRepository,
    private readonly audit: AuditService,
  ) {}

  async create(
    tenantId: string,
    input: CreateGroupMappingDto,
    actor: Actor,
    grantor: Grantor,
  ): Promise<GroupMappingView> {
    assertMayGrant(grantor, input.roles);
    // The unique group is the check: mapped before, or by a create racing this one, it is a 409.
    const row = await this.audit
      .transaction(tenantId, async (tx) => {
        if (!(await this.tenants.exists(tx, tenantId)))
          throw problemFor(404, `Tenant ${tenantId} does not exist.`);
        const created = await this.mappings.insert(tx, {
          id: randomUUID(),
          tenantId,
          group: input.group,
          roles: input.roles,
          createdBy: actor.onBehalfOf ? `${actor.actor} for ${actor.onBehalfOf}` : actor.actor,
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
    this.cache.clear();
    return toView(row);
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
    await this.audit.transaction(tenantId, async (tx) => {
      const existing = await this.mappings.find(tx, tenantId, id);
      if (!existing) throw problemFor(404, `Group mapping ${id} does not exist.`);
      await this.mappings.delete(tx, id);
      await this.audit.append(tx, actor, {
        tenantId,
        action: 'group-mapping.delete',
        target: `group-mapping:${id}`,
        outcome: 'succeeded',
        httpStatus: 204,
        details: { group: existing.group, roles: existing.roles },
      });
    });
    this.cache.clear();
  }

  /** The tenants `groups` are mapped into, each with the union of their roles there. */
  async rolesByTenant(groups: readonly string[]): Promise<Map<string, Role[]>> {
    if (groups.length === 0) return new Map();
    const cacheKey = JSON.stringify([...new Set(groups)].sort());
    const now = Date.now();
    const cached = this.cache.get(cacheKey);
    if (cached && cached.expiresAt > now) return cached.byTenant;
    const rows = await this.mappings.ofGroups(groups);
    const byTenant = new Map<string, Role[]>();
    for (const row of rows) {
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
