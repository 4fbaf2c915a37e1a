import { randomBytes, randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { CliModule } from '../src/cli/cli.module';
import { loadConfig } from '../src/config/app-config';
import { CliUsageError, migrateDatabase, runCommand } from '../src/cli/commands';
import { UpstreamCredentials } from '../src/credentials/upstream-credentials';
import { PrismaService } from '../src/database/prisma.service';
import { bearer, createTenant } from './support/fixtures';
import { startGateway, TEST_AUDIT_CHAIN_KEYS, TestGateway } from './support/gateway';
import { createScratchDatabase, ScratchDatabase } from './support/scratch-database';

const v1 = `v1:${randomBytes(32).toString('base64')}`;
const v2 = `v2:${randomBytes(32).toString('base64')}`;
const actor = { actor: 'test', onBehalfOf: null, keyId: null, requestId: 'test' };

describe('cli (e2e)', () => {
  // Key rotation covers every credential row, so this test has a database of its own.
  let scratch: ScratchDatabase;
  let database: Record<string, string>;

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    database = scratch.env;
  });
  afterAll(() => scratch.drop());

  async function withGateway<T>(keys: string, work: (gateway: TestGateway) => Promise<T>): Promise<T> {
    const gateway = await startGateway({ ...database, GATEWAY_ENCRYPTION_KEYS: keys });
    try {
      return await work(gateway);
    } finally {
      await gateway.close();
    }
  }

  it('creates tenants and keys, and revokes keys', async () => {
    await withGateway(v1, async (gateway) => {
      const [tenantLine] = await runCommand(gateway.app, [
        'tenant',
        'create',
        `cli-${randomUUID().slice(0, 6)}`,
      ]);
      const tenantId = /: (\S+)$/.exec(tenantLine)![1];
      const lines = await runCommand(gateway.app, [
        'key',
        'create',
        '--tenant',
        tenantId,
        '--roles',
        'admin,viewer',
      ]);
      const key = lines[1].trim();
      const keyId = /^key (\S+)/.exec(lines[0])![1];
      await gateway.http.get('/v1/keys').set(bearer(key)).expect(200);
      await runCommand(gateway.app, ['key', 'revoke', keyId]);
      await gateway.http.get('/v1/keys').set(bearer(key)).expect(401);
      await expect(
        runCommand(gateway.app, ['key', 'create', '--tenant', tenantId, '--roles', 'root']),
      ).rejects.toThrow(CliUsageError);
      await expect(runCommand(gateway.app, ['nonsense', 'command'])).rejects.toThrow(/usage:/);
    });
  });

  it('lists the tenants, or the one with a name, a line each', async () => {
    await withGateway(v1, async (gateway) => {
      const names = [0, 1, 2].map((i) => `cli-list-${i}-${randomUUID().slice(0, 6)}`);
      const ids: string[] = [];
      for (const name of names) {
        ids.push(/: (\S+)$/.exec((await runCommand(gateway.app, ['tenant', 'create', name]))[0])![1]);
      }
      const line = (i: number) =>
        expect.stringMatching(new RegExp(`^${ids[i]}  ${names[i]}  created \\d{4}-`));
      expect(await runCommand(gateway.app, ['tenant', 'list', '--name', names[1]])).toEqual([line(1)]);
      // More than a page of tenants: every one is listed, oldest first, the three just made last.
      const batch = `cli-batch-${randomUUID().slice(0, 6)}`;
      await gateway.app.get(PrismaService).tenant.createMany({
        data: Array.from({ length: 200 }, (_, i) => ({
          id: randomUUID(),
          name: `${batch}-${i}`,
          createdAt: new Date(Date.now() - 60_000),
        })),
      });
      const all = await runCommand(gateway.app, ['tenant', 'list']);
      expect(all.filter((listed) => listed.includes(batch))).toHaveLength(200);
      expect(new Set(all).size).toBe(all.length);
      expect(all.slice(-3)).toEqual([line(0), line(1), line(2)]);
      expect(await runCommand(gateway.app, ['tenant', 'list', '--name', 'no-such-tenant'])).toEqual([
        'no tenant named "no-such-tenant"',
      ]);
      await expect(runCommand(gateway.app, ['tenant', 'list', '--name'])).rejects.toThrow(
        /--name needs a NAME/,
      );
    });
  });

  it('rewraps every credential to the active key while rotations run, losing nothing', async () => {
    const expected = new Map<string, string>();
    let tenantId = '';
    await withGateway(v1, async (gateway) => {
      const tenant = await createTenant(gateway);
      tenantId = tenant.id;
      for (let i = 0; i < 12; i++) {
        const organizationId = randomUUID();
        const secret = `secret-${i}`;
        const created = await gateway.http
          .post('/v1/credentials')
          .set(bearer(tenant.keys.admin))
          .send({ kind: 'pipes', name: `c${i}`, organizationId, keyId: `key-${i}`, keySecret: secret })
          .expect(201);
        expected.set(organizationId, secret);
        expected.set(`id:${organizationId}`, created.body.id);
      }
    });

    await withGateway(`${v2},${v1}`, async (gateway) => {
      await expect(runCommand(gateway.app, ['keys', 'drop', 'v1'])).rejects.toThrow(
        /still seals 12 credential/,
      );
      const tenantKeys = await runCommand(gateway.app, [
        'key',
        'create',
        '--tenant',
        tenantId,
        '--roles',
        'admin',
      ]);
      const admin = tenantKeys[1].trim();
      const rotations = [...expected.keys()]
        .filter((key) => !key.startsWith('id:'))
        .slice(0, 6)
        .map(async (organizationId, i) => {
          const secret = `rotated-${i}`;
          await gateway.http
            .post(`/v1/credentials/${expected.get(`id:${organizationId}`)}/rotate`)
            .set(bearer(admin))
            .send({ keySecret: secret })
            .expect(200);
          expected.set(organizationId, secret);
        });
      const [rewrapped] = await Promise.all([runCommand(gateway.app, ['keys', 'rewrap']), ...rotations]);
      expect(rewrapped[0]).toMatch(/moved to master key v2/);
      expect(await runCommand(gateway.app, ['keys', 'usage'])).toEqual([
        'v2 (active): 12 credential(s)',
        'v1: 0 credential(s)',
      ]);
      expect(await runCommand(gateway.app, ['keys', 'drop', 'v1'])).toEqual([
        expect.stringMatching(/can be removed/),
      ]);
    });

    // Only v2 left: every credential still opens, with its latest secret.
    await withGateway(v2, async (gateway) => {
      const credentials = gateway.app.get(UpstreamCredentials);
      for (const [organizationId, secret] of expected) {
        if (organizationId.startsWith('id:')) continue;
        expect((await credentials.pipesCredential(tenantId, organizationId, actor)).secret.keySecret).toBe(
          secret,
        );
      }
    });
  });

  it('refuses to start without a master key that still seals credentials', async () => {
    await expect(
      startGateway({ ...database, GATEWAY_ENCRYPTION_KEYS: `v3:${randomBytes(32).toString('base64')}` }),
    ).rejects.toThrow(/GATEWAY_ENCRYPTION_KEYS lacks v2/);
  });

  it('runs its commands in the application context the cli binary builds', async () => {
    // What `npm run cli` and `npm run db:migrate` start: the CLI module alone, without the HTTP app.
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: 'memory://',
      ...database,
      // Both keys: the tests above leave credentials sealed with either.
      GATEWAY_ENCRYPTION_KEYS: `${v2},${v1}`,
      AUDIT_CHAIN_KEYS: TEST_AUDIT_CHAIN_KEYS,
    });
    // `db migrate` opens the database alone, before any module (the gateways above migrated it).
    expect(await migrateDatabase(config.database)).toEqual([
      expect.stringMatching(/^database .* is already up to date \(\d+ migrations\)$/),
    ]);
    const app = await NestFactory.createApplicationContext(CliModule.forRoot(config), {
      logger: false,
      abortOnError: false,
    });
    try {
      const [tenantLine] = await runCommand(app, ['tenant', 'create', `cli-${randomUUID().slice(0, 6)}`]);
      const tenantId = /: (\S+)$/.exec(tenantLine)![1];
      expect((await runCommand(app, ['tenant', 'list'])).join('\n')).toContain(tenantId);
      const keyLines = await runCommand(app, ['key', 'create', '--tenant', tenantId, '--roles', 'viewer']);
      expect(keyLines.join('\n')).toMatch(/pgw_/);
    } finally {
      await app.close();
    }
  });
});
