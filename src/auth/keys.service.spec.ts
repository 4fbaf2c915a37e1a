import type { AuditService } from '../audit/audit.service';
import { sha256 } from '../crypto/hashing';
import type { PrismaService } from '../database/prisma.service';
import type { WriteTransactions } from '../database/write-transactions';
import type { TenantsRepository } from '../tenants/tenants.repository';
import { generateGatewayKey } from './gateway-key';
import { KeysRepository } from './keys.repository';
import { KeysService } from './keys.service';

/** The key table as KeysService reads it: one key, each lookup answered a few ms later. */
function keyTable(key: string, prefix: string) {
  const row = {
    id: '0b4a3a44-36a5-4d7c-9d35-2f4f6c0a1f10',
    tenantId: '5f0c7a8e-1b2d-4c3e-8f9a-0b1c2d3e4f50',
    roles: ['viewer'],
    delegate: false,
    hash: new Uint8Array(sha256(key)),
    revokedAt: null,
  };
  const findUnique = jest.fn(
    ({ where }: { where: { prefix: string } }) =>
      new Promise((resolve) => setTimeout(() => resolve(where.prefix === prefix ? row : null), 5)),
  );
  const prisma = { gatewayKey: { findUnique, updateMany: jest.fn(() => Promise.resolve()) } };
  return { prisma: prisma as unknown as PrismaService, findUnique };
}

describe('KeysService.authenticate', () => {
  it('looks a key up once for all the requests that arrive while the lookup runs', async () => {
    const { key, prefix } = generateGatewayKey();
    const { prisma, findUnique } = keyTable(key, prefix);
    const keys = new KeysService(
      new KeysRepository(prisma),
      {} as TenantsRepository,
      {} as AuditService,
      {} as WriteTransactions,
    );

    const identities = await Promise.all(Array.from({ length: 50 }, () => keys.authenticate(key)));
    await keys.onModuleDestroy();

    expect(findUnique).toHaveBeenCalledTimes(1);
    expect(new Set(identities.map((identity) => identity?.id))).toEqual(
      new Set(['0b4a3a44-36a5-4d7c-9d35-2f4f6c0a1f10']),
    );
  });

  it('still refuses a wrong secret with a known prefix, from the shared lookup', async () => {
    const { key, prefix } = generateGatewayKey();
    const { prisma } = keyTable(key, prefix);
    const keys = new KeysService(
      new KeysRepository(prisma),
      {} as TenantsRepository,
      {} as AuditService,
      {} as WriteTransactions,
    );
    const forged = `${key.slice(0, -4)}AAAA`;

    const [genuine, wrong] = await Promise.all([keys.authenticate(key), keys.authenticate(forged)]);
    await keys.onModuleDestroy();

    expect(genuine).not.toBeNull();
    expect(wrong).toBeNull();
  });
});
