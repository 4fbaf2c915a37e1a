import { Injectable } from '@nestjs/common';
import { createdAtKeyset } from '../common/pagination';
import { PrismaService, PrismaTx } from '../database/prisma.service';
import type { GroupMapping, Prisma } from '../generated/prisma/client';

/** The group_mappings table: which group gets which roles in a tenant. */
@Injectable()
export class GroupMappingsRepository {
  constructor(private readonly prisma: PrismaService) {}

  insert(tx: PrismaTx, row: Prisma.GroupMappingUncheckedCreateInput): Promise<GroupMapping> {
    return tx.groupMapping.create({ data: row });
  }

  idOfGroup(tenantId: string, group: string): Promise<{ id: string } | null> {
    return this.prisma.groupMapping.findUnique({
      where: { tenantId_group: { tenantId, group } },
      select: { id: true },
    });
  }

  /** One page, oldest first, one row more than `limit` to tell whether more follow. */
  page(tenantId: string, cursor: string | undefined, limit: number): Promise<GroupMapping[]> {
    const keyset = createdAtKeyset(cursor, 'asc');
    return this.prisma.groupMapping.findMany({
      where: { tenantId, ...keyset.where },
      orderBy: keyset.orderBy,
      take: limit + 1,
    });
  }

  find(tx: PrismaTx, tenantId: string, id: string): Promise<GroupMapping | null> {
    return tx.groupMapping.findFirst({ where: { id, tenantId } });
  }

  async delete(tx: PrismaTx, id: string): Promise<void> {
    await tx.groupMapping.delete({ where: { id } });
  }

  /** The tenant's mapping of `group`, if it has one. */
  ofGroupIn(tx: PrismaTx, tenantId: string, group: string): Promise<GroupMapping | null> {
    return tx.groupMapping.findUnique({ where: { tenantId_group: { tenantId, group } } });
  }

  /** The mappings of any of `groups`, in every tenant. */
  ofGroups(groups: readonly string[]): Promise<Pick<GroupMapping, 'tenantId' | 'group' | 'roles'>[]> {
    return this.prisma.groupMapping.findMany({
      where: { group: { in: [...groups] } },
      select: { tenantId: true, group: true, roles: true },
    });
  }

  /** How many mappings name a group that is not assigned to their tenant, and so give no roles. */
  async countInert(): Promise<number> {
    const [row] = await this.prisma.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count FROM group_mappings m
      WHERE NOT EXISTS (SELECT 1 FROM tenant_groups g WHERE g."group" = m."group" AND g.tenant_id = m.tenant_id)`;
    return row.count;
  }
}
