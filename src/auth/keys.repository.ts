import { Injectable } from '@nestjs/common';
import { createdAtKeyset } from '../common/pagination';
import { PrismaService, PrismaTx } from '../database/prisma.service';
import type { GatewayKey, Prisma } from '../generated/prisma/client';

/** What authentication needs of a key. */
export type KeyRow = Pick<GatewayKey, 'id' | 'tenantId' | 'roles' | 'delegate' | 'hash' | 'revokedAt'>;

/** The gateway_keys table: keys stored as digests, never as themselves. */
@Injectable()
export class KeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  insert(tx: PrismaTx, row: Prisma.GatewayKeyUncheckedCreateInput): Promise<GatewayKey> {
    return tx.gatewayKey.create({ data: row });
  }

  /** One page, oldest first, one row more than `limit` to tell whether more follow. */
  page(tenantId: string, cursor: string | undefined, limit: number): Promise<GatewayKey[]> {
    const keyset = createdAtKeyset(cursor, 'asc');
    return this.prisma.gatewayKey.findMany({
      where: { tenantId, ...keyset.where },
      orderBy: keyset.orderBy,
      take: limit + 1,
    });
  }

  find(tx: PrismaTx, tenantId: string, id: string): Promise<GatewayKey | null> {
    return tx.gatewayKey.findFirst({ where: { id, tenantId } });
  }

  revoke(tx: PrismaTx, id: string): Promise<GatewayKey> {
    return tx.gatewayKey.update({ where: { id }, data: { revokedAt: new Date() } });
  }

  byPrefix(prefix: string): Promise<KeyRow | null> {
    return this.prisma.gatewayKey.findUnique({
      where: { prefix },
      select: { id: true, tenantId: true, roles: true, delegate: true, hash: true, revokedAt: true },
    });
  }

  tenantOf(id: string): Promise<{ tenantId: string } | null> {
    return this.prisma.gatewayKey.findUnique({ where: { id }, select: { tenantId: true } });
  }

  async markUsed(id: string, lastUsedAt: Date): Promise<void> {
    await this.prisma.gatewayKey.updateMany({ where: { id }, data: { lastUsedAt } });
  }
}
