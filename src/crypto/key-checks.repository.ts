import { Injectable } from '@nestjs/common';
import { PrismaService, PrismaTx } from '../database/prisma.service';

/** What a key ring's key proves: sealing credentials, or chaining audit events. */
export type KeyPurpose = 'encryption' | 'audit-chain';

export interface StoredKeyCheck {
  keyVersion: string;
  checkValue: Buffer;
}

/** The key_checks table: per purpose and key version, a value only that key produces. */
@Injectable()
export class KeyChecksRepository {
  constructor(private readonly prisma: PrismaService) {}

  async ofPurpose(
    purpose: KeyPurpose,
    db: PrismaService | PrismaTx = this.prisma,
  ): Promise<StoredKeyCheck[]> {
    const rows = await db.keyCheck.findMany({ where: { purpose } });
    return rows.map((row) => ({ keyVersion: row.keyVersion, checkValue: Buffer.from(row.checkValue) }));
  }

  /** Stores the version's check value unless one is stored already; answers whether it stored it. */
  async storeIfAbsent(purpose: KeyPurpose, keyVersion: string, checkValue: Buffer): Promise<boolean> {
    const created = await this.prisma.keyCheck.createMany({
      data: [{ purpose, keyVersion, checkValue: new Uint8Array(checkValue) }],
      skipDuplicates: true,
    });
    return created.count > 0;
  }

  async checkValue(purpose: KeyPurpose, keyVersion: string): Promise<Buffer> {
    const { checkValue } = await this.prisma.keyCheck.findUniqueOrThrow({
      where: { purpose_keyVersion: { purpose, keyVersion } },
    });
    return Buffer.from(checkValue);
  }

  async replace(tx: PrismaTx, purpose: KeyPurpose, keyVersion: string, checkValue: Buffer): Promise<void> {
    await tx.keyCheck.update({
      where: { purpose_keyVersion: { purpose, keyVersion } },
      data: { checkValue: new Uint8Array(checkValue) },
    });
  }
}
