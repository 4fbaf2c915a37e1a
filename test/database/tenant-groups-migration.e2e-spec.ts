import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AuditService } from '../../src/audit/audit.service';
import type { WriteTransactions } from '../../src/database/write-transactions';
import { GroupMappingsRepository } from '../../src/sign-in/group-mappings.repository';
import { GroupMappingsService } from '../../src/sign-in/group-mappings.service';
import { TenantGroupsRepository } from '../../src/sign-in/tenant-groups.repository';
import { TenantsRepository } from '../../src/tenants/tenants.repository';
import { MigrationUnderTest } from '../support/migration-under-test';

const MIGRATION = '20261129100000_tenant_groups';

/**
 * Group mappings were per tenant with nothing saying whose a group is; the migration assigns each
 * mapped group to the tenant that mapped it first, so existing sign-ins keep their roles, and a
 * group another tenant mapped later gives nothing there any more.
 */
describe(`migration ${MIGRATION}`, () => {
  let migration: MigrationUnderTest | undefined;

  afterEach(async () => {
    await migration?.close();
    migration = undefined;
  });

  it('assigns every mapped group to the tenant whose mapping is oldest; later mappings elsewhere give nothing', async () => {
    migration = await MigrationUnderTest.before(MIGRATION);

    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 9, minute));
    const mappings: [tenant: string, group: string, roles: string, createdAt: Date][] = [
      [a, 'a-operators', '{operator}', at(0)],
      [a, 'a-admins', '{admin}', at(1)],
      [b, 'b-viewers', '{viewer}', at(2)],
      // B's admin mapped A's group later: A keeps it.
      [b, 'a-operators', '{admin,operator}', at(3)],
      // Mapped by C first, then by A.
      [c, 'shared', '{viewer}', at(4)],
      [a, 'shared', '{auditor}', at(5)],
    ];
    await migration.withSession(async (session) => {
      for (const [id, name] of [
        [a, 'tenant-a'],
        [b, 'tenant-b'],
        [c, 'tenant-c'],
      ]) {
        await session.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [id, name]);
      }
      for (const [tenant, group, roles, createdAt] of mappings) {
        await session.query(
          `INSERT INTO group_mappings (id, tenant_id, "group", roles, created_by, created_at)
           VALUES ($1, $2, $3, $4::"Role"[], 'key:old', $5)`,
          [randomUUID(), tenant, group, roles, createdAt],
        );
      }
    });

    const prisma = await migration.applyRest();

    const assigned = await prisma.tenantGroup.findMany({ orderBy: { group: 'asc' } });
    expect(
      assigned.map(({ group, tenantId, createdBy, createdAt }) => ({
        group,
        tenantId,
        createdBy,
        createdAt,
      })),
    ).toEqual([
      { group: 'a-admins', tenantId: a, createdBy: 'gateway', createdAt: at(1) },
      { group: 'a-operators', tenantId: a, createdBy: 'gateway', createdAt: at(0) },
      { group: 'b-viewers', tenantId: b, createdBy: 'gateway', createdAt: at(2) },
      { group: 'shared', tenantId: c, createdBy: 'gateway', createdAt: at(4) },
    ]);
    // Every mapping is still there; the two that lost their group are kept, inert.
    expect(await prisma.groupMapping.count()).toBe(mappings.length);

    const mappingsRepository = new GroupMappingsRepository(prisma);
    expect(await mappingsRepository.countInert()).toBe(2);
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const service = new GroupMappingsService(
      mappingsRepository,
      new TenantGroupsRepository(prisma),
      new TenantsRepository(prisma),
      // Resolving roles and the check at start append nothing to the audit log.
      null as unknown as AuditService,
      null as unknown as WriteTransactions,
    );
    try {
      await service.onApplicationBootstrap();
      expect(warn).toHaveBeenCalledWith(
        { inertGroupMappings: 2 },
        expect.stringMatching(/^2 group mapping\(s\) name a group that is not assigned to their tenant/),
      );
    } finally {
      warn.mockRestore();
    }

    const roles = async (groups: string[]) => Object.fromEntries(await service.rolesByTenant(groups));
    expect(await roles(['a-operators'])).toEqual({ [a]: ['operator'] });
    expect(await roles(['a-admins', 'shared'])).toEqual({ [a]: ['admin'], [c]: ['viewer'] });
    expect(await roles(['b-viewers'])).toEqual({ [b]: ['viewer'] });
  });
});
