import { Injectable } from '@nestjs/common';
import { createdAtKeyset } from '../common/pagination';
import { PrismaService, PrismaTx } from '../database/prisma.service';
import type { Tenant } from '../generated/prisma/client';

/** The tenants table. Tenants are never deleted. */
@Injectable()
export class TenantsRepository {
  constructor(private readonly prisma: PrismaService) {}

  insert(tx: PrismaTx, id: string, name: string): Promise<Tenant> {
    return tx.tenant.create({ data: { id, name } });
  }

  /** Whether the tenant exists, read in `tx` (whose writes for the tenant follow). */
  async exists(tx: PrismaTx, id: string): Promise<boolean> {
    return (await tx.tenant.findUnique({ where: { id }, select: { id: true } })) !== null;
  }

  async idOfName(name: string): Promise<string> {
    return (await this.prisma.tenant.findUniqueOrThrow({ where: { name }, select: { id: true } })).id;
  }

  /** One page, oldest first, one row more than `limit` to tell whether more follow. */
  page(name: string | undefined, cursor: string | undefined, limit: number): Promise<Tenant[]> {
    const keyset = createdAtKeyset(cursor, 'asc');
    return this.prisma.tenant.findMany({
      where: { ...(name === undefined ? {} : { name }), ...keyset.where },
      orderBy: keyset.orderBy,
      take: limit + 1,
    });
  }

  /** These tenants' ids and names, by name. */
  named(ids: readonly string[]): Promise<{ id: string; name: string }[]> {
    return this.prisma.tenant.findMany({
      where: { id: { in: [...ids] } },
      select: { id: true, name: true },
      orderBy: { name: 'asc' },
    });
  }
}
