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

  /** The mappings of any of `groups`, in every tenant. */
  ofGroups(groups: readonly string[]): Promise<Pick<GroupMapping, 'tenantId' | 'roles'>[]> {
    return this.prisma.groupMapping.findMany({
      where: { group: { in: [...groups] } },
      select: { tenantId: true, roles: true },
    });
  }
}
