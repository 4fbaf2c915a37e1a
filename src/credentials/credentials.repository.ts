import { Injectable } from '@nestjs/common';
import { createdAtKeyset } from '../common/pagination';
import { PrismaService, PrismaTx } from '../database/prisma.service';
import type { Credential, Prisma } from '../generated/prisma/client';

/** The columns that hold a sealed secret. */
export interface SealedColumns {
  ciphertext: Uint8Array<ArrayBuffer>;
  iv: Uint8Array<ArrayBuffer>;
  authTag: Uint8Array<ArrayBuffer>;
  keyVersion: string;
}

// Rows a rewrap reads at a time.
const REWRAP_BATCH = 100;

/** The credentials table: every stored credential, its secret sealed. */
@Injectable()
export class CredentialsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** One page, oldest first, one row more than `limit` to tell whether more follow. */
  page(tenantId: string, cursor: string | undefined, limit: number): Promise<Credential[]> {
    const keyset = createdAtKeyset(cursor, 'asc');
    return this.prisma.credential.findMany({
      where: { tenantId, ...keyset.where },
      orderBy: keyset.orderBy,
      take: limit + 1,
    });
  }

  find(tenantId: string, id: string, db: PrismaService | PrismaTx = this.prisma): Promise<Credential | null> {
    return db.credential.findFirst({ where: { id, tenantId } });
  }

  async exists(tenantId: string, id: string): Promise<boolean> {
    return (await this.prisma.credential.count({ where: { id, tenantId } })) > 0;
  }

  /** The row, locked until `tx` ends; null when the tenant has no such credential. */
  async lock(tx: PrismaTx, tenantId: string, id: string): Promise<Credential | null> {
    await tx.$queryRaw`SELECT id FROM credentials WHERE id = ${id}::uuid AND tenant_id = ${tenantId}::uuid FOR UPDATE`;
    return this.find(tenantId, id, tx);
  }

  countDashboards(tx: PrismaTx, tenantId: string): Promise<number> {
    return tx.credential.count({ where: { tenantId, kind: 'dashboards' } });
  }

  async clearDashboardsDefault(tx: PrismaTx, tenantId: string): Promise<void> {
    await tx.credential.updateMany({ where: { tenantId, kind: 'dashboards' }, data: { isDefault: false } });
  }

  insert(tx: PrismaTx, row: Prisma.CredentialUncheckedCreateInput): Promise<Credential> {
    return tx.credential.create({ data: row });
  }

  /** A new secret: version + 1, and a refusal mark cleared. */
  replaceSecret(
    tx: PrismaTx,
    id: string,
    secret: SealedColumns & { hint: string; fields: string[] },
  ): Promise<Credential> {
    return tx.credential.update({
      where: { id },
      data: {
        ...secret,
        version: { increment: 1 },
        updatedAt: new Date(),
        rejectedAt: null,
        rejectedStatus: null,
      },
    });
  }

  async delete(tx: PrismaTx, id: string): Promise<void> {
    await tx.credential.delete({ where: { id } });
  }

  /** The oldest dashboards credential left is made the default, if there is one. */
  async defaultToOldestDashboards(tx: PrismaTx, tenantId: string): Promise<void> {
    const next = await tx.credential.findFirst({
      where: { tenantId, kind: 'dashboards' },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    if (next) await tx.credential.update({ where: { id: next.id }, data: { isDefault: true } });
  }

  pipes(tenantId: string, organizationId: string): Promise<Credential | null> {
    return this.prisma.credential.findFirst({ where: { tenantId, kind: 'pipes', organizationId } });
  }

  /** The dashboards credential `credentialId`, or the default one. */
  dashboards(tenantId: string, credentialId: string | undefined): Promise<Credential | null> {
    return this.prisma.credential.findFirst({
      where: { tenantId, kind: 'dashboards', ...(credentialId ? { id: credentialId } : { isDefault: true }) },
    });
  }

  /** The tenant's vault secrets with one of these names or ids. */
  secrets(tenantId: string, names: readonly string[], ids: readonly string[]): Promise<Credential[]> {
    return this.prisma.credential.findMany({
      where: { tenantId, kind: 'secret', OR: [{ secretName: { in: [...names] } }, { id: { in: [...ids] } }] },
    });
  }

  ofTenant(tenantId: string): Promise<Credential[]> {
    return this.prisma.credential.findMany({ where: { tenantId } });
  }

  /** Only the version that was refused: a rotation that raced the call is not undone. */
  async markRejected(
    tx: PrismaTx,
    credential: { id: string; tenantId: string; version: number },
    status: number,
  ): Promise<void> {
    await tx.credential.updateMany({
      where: { id: credential.id, tenantId: credential.tenantId, version: credential.version },
      data: { rejectedAt: new Date(), rejectedStatus: status },
    });
  }

  async markUsed(tx: PrismaTx, tenantId: string, id: string, lastUsedAt: Date): Promise<void> {
    await tx.credential.updateMany({ where: { id, tenantId }, data: { lastUsedAt } });
  }

  /** How many credentials each key version seals. */
  async keyVersionUsage(): Promise<Record<string, number>> {
    const rows = await this.prisma.credential.groupBy({ by: ['keyVersion'], _count: { _all: true } });
    return Object.fromEntries(rows.map((row) => [row.keyVersion, row._count._all]));
  }

  /** The credential sealed first with `keyVersion`, or null when it seals none. */
  oldestSealedWith(
    keyVersion: string,
  ): Promise<Pick<Credential, 'id' | 'tenantId' | 'ciphertext' | 'iv' | 'authTag'> | null> {
    return this.prisma.credential.findFirst({
      where: { keyVersion },
      orderBy: { createdAt: 'asc' },
      select: { id: true, tenantId: true, ciphertext: true, iv: true, authTag: true },
    });
  }

  /** Ids of credentials sealed with another key version than `keyVersion`, a batch at a time. */
  async sealedWithOtherThan(keyVersion: string): Promise<string[]> {
    const rows = await this.prisma.credential.findMany({
      where: { keyVersion: { not: keyVersion } },
      select: { id: true },
      take: REWRAP_BATCH,
    });
    return rows.map((row) => row.id);
  }

  /**
   * Reseals one credential under a row lock, so rotations and reads carry on meanwhile: `reseal`
   * gets the row as it is now and answers its new sealed columns, or null to leave it. True when
   * it was resealed.
   */
  resealed(id: string, reseal: (row: Credential) => SealedColumns | null): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM credentials WHERE id = ${id}::uuid FOR UPDATE`;
      const current = await tx.credential.findUnique({ where: { id } });
      const sealed = current && reseal(current);
      if (!sealed) return false;
      await tx.credential.update({ where: { id }, data: sealed });
      return true;
    });
  }
}
