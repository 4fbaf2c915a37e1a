import { Injectable } from '@nestjs/common';
import { createdAtKeyset } from '../common/pagination';
import { PrismaService, PrismaTx } from '../database/prisma.service';
import type { Prisma, TenantGroup } from '../generated/prisma/client';

/** The tenant_groups table: which tenant each identity-provider group is assigned to. */
@Injectable()
export class TenantGroupsRepository {
  constructor(private readonly prisma: PrismaService) {}

  insert(tx: PrismaTx, row: Prisma.TenantGroupUncheckedCreateInput): Promise<TenantGroup> {
    return tx.tenantGroup.create({ data: row });
  }

  /** Inserts `row` unless its group is assigned already (to any tenant): whether it did. */
  async insertIfFree(tx: PrismaTx, row: Prisma.TenantGroupUncheckedCreateInput): Promise<boolean> {
    return (await tx.tenantGroup.createMany({ data: [row], skipDuplicates: true })).count === 1;
  }

  /** The assignment of `group`, in whichever tenant; read in `tx` when given. */
  ofGroup(group: string, tx: PrismaTx = this.prisma): Promise<TenantGroup | null> {
    return tx.tenantGroup.findUnique({ where: { group } });
  }

  /** The tenant each of `groups` that is assigned belongs to, by group. */
  async owners(groups: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.prisma.tenantGroup.findMany({
      where: { group: { in: [...groups] } },
      select: { group: true, tenantId: true },
    });
    return new Map(rows.map((row) => [row.group, row.tenantId]));
  }

  /** One page, oldest first, one row more than `limit` to tell whether more follow. */
  page(tenantId: string, cursor: string | undefined, limit: number): Promise<TenantGroup[]> {
    const keyset = createdAtKeyset(cursor, 'asc');
    return this.prisma.tenantGroup.findMany({
      where: { tenantId, ...keyset.where },
      orderBy: keyset.orderBy,
      take: limit + 1,
    });
  }

  find(tx: PrismaTx, tenantId: string, id: string): Promise<TenantGroup | null> {
    return tx.tenantGroup.findFirst({ where: { id, tenantId } });
  }

  async delete(tx: PrismaTx, id: string): Promise<void> {
    await tx.tenantGroup.delete({ where: { id } });
  }
}
