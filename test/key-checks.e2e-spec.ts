import { randomUUID } from 'node:crypto';
import { runCommand } from '../src/cli/commands';
import { generateKeyText } from '../src/crypto/key-ring';
import { PrismaService } from '../src/database/prisma.service';
import { bearer, createTenant } from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-database';

/**
 * The master keys and the audit chain keys are proven against the database at every start: a
 * wrong or missing key stops the start naming its version, before the gateway serves anything.
 */
describe('key checks at start (e2e)', () => {
  // Each test starts gateways on a database of its own four or five times; an embedded one takes
  // seconds to open on a busy machine.
  jest.setTimeout(240_000);
  let scratch: ScratchDatabase;

  beforeEach(async () => {
    scratch = await createScratchDatabase();
  });
  afterEach(() => scratch.drop());

  async function withGateway<T>(
    keys: { master: string; chain: string },
    work: (gateway: TestGateway) => Promise<T>,
  ): Promise<T> {
    const gateway = await startGateway({
      ...scratch.env,
      GATEWAY_ENCRYPTION_KEYS: keys.master,
      AUDIT_CHAIN_KEYS: keys.chain,
    });
    try {
      return await work(gateway);
    } finally {
      await gateway.close();
    }
  }

  const start = (master: string, chain: string) =>
    startGateway({ ...scratch.env, GATEWAY_ENCRYPTION_KEYS: master, AUDIT_CHAIN_KEYS: chain });

  /** A tenant with a stored pipes credential; answers the tenant. */
  async function storeCredential(gateway: TestGateway) {
    const tenant = await createTenant(gateway);
    await gateway.http
      .post('/v1/credentials')
      .set(bearer(tenant.keys.admin))
      .send({ kind: 'pipes', name: 'p', organizationId: randomUUID(), keyId: 'KEYID-1', keySecret: 's3cret' })
      .expect(201);
    return tenant;
  }

  const checks = (gateway: TestGateway) =>
    gateway.app
      .get(PrismaService)
      .keyCheck.findMany({ orderBy: [{ purpose: 'asc' }, { keyVersion: 'asc' }] })
      .then((rows) => rows.map((row) => `${row.purpose}:${row.keyVersion}`));

  it('stores a check for each key version at first use, and refuses a wrong master key naming it', async () => {
    const master = generateKeyText('v1');
    const chain = generateKeyText('v1');
    await withGateway({ master, chain }, async (gateway) => {
      expect(await checks(gateway)).toEqual(['audit-chain:v1', 'encryption:v1']);
      await storeCredential(gateway);
    });

    const error = await start(generateKeyText('v1'), chain).then(
      () => null,
      (failure: Error) => failure,
    );
    expect(error?.message).toMatch(
      /^GATEWAY_ENCRYPTION_KEYS key v1 is not the key v1 this database was sealed with/,
    );
    // The right key still starts: nothing was changed.
    await withGateway({ master, chain }, (gateway) => gateway.http.get('/health/ready').expect(200));
  });

  it('proves a key against the credentials it sealed when the database has no check for it yet', async () => {
    const master = generateKeyText('v1');
    const chain = generateKeyText('v1');
    await withGateway({ master, chain }, async (gateway) => {
      await storeCredential(gateway);
      // As a database from before key checks: credentials, and no check value.
      await gateway.app.get(PrismaService).keyCheck.deleteMany({ where: { purpose: 'encryption' } });
    });
    await expect(start(generateKeyText('v1'), chain)).rejects.toThrow(
      /^GATEWAY_ENCRYPTION_KEYS key v1 does not open credential [0-9a-f-]{36}, which it sealed/,
    );
    await withGateway({ master, chain }, async (gateway) => {
      expect(await checks(gateway)).toEqual(['audit-chain:v1', 'encryption:v1']);
    });
  });

  it('checks a new master key at rotation, rewraps, and lets the old key go once nothing needs it', async () => {
    const v1 = generateKeyText('v1');
    const v2 = generateKeyText('v2');
    const chain = generateKeyText('v1');
    await withGateway({ master: v1, chain }, (gateway) => storeCredential(gateway));
    await withGateway({ master: `${v2},${v1}`, chain }, async (gateway) => {
      expect(await checks(gateway)).toEqual(['audit-chain:v1', 'encryption:v1', 'encryption:v2']);
      expect(await runCommand(gateway.app, ['keys', 'rewrap'])).toEqual([
        '1 credential(s) moved to master key v2',
      ]);
    });
    // A wrong v1 beside the right v2 is still refused while its check is kept.
    await expect(start(`${v2},${generateKeyText('v1')}`, chain)).rejects.toThrow(/key v1 is not the key v1/);
    await withGateway({ master: v2, chain }, (gateway) => gateway.http.get('/health/ready').expect(200));
  });

  it('refuses a wrong audit chain key, and a missing one that kept events were chained with', async () => {
    const master = generateKeyText('v1');
    const v1 = generateKeyText('v1');
    const v2 = generateKeyText('v2');
    let tenantKeys: { auditor: string } | undefined;
    await withGateway({ master, chain: v1 }, async (gateway) => {
      tenantKeys = (await storeCredential(gateway)).keys;
    });
    await expect(start(master, generateKeyText('v1'))).rejects.toThrow(
      /^AUDIT_CHAIN_KEYS key v1 is not the key v1 this database was chained with/,
    );

    // Rotation: v2 chains new events, v1 still verifies the old ones.
    await withGateway({ master, chain: `${v2},${v1}` }, async (gateway) => {
      await gateway.http
        .post('/v1/keys')
        .set(bearer((await createTenant(gateway)).keys.admin))
        .send({ name: 'after rotation', roles: ['viewer'] })
        .expect(201);
      const verify = await gateway.http.get('/v1/audit/verify').set(bearer(tenantKeys!.auditor)).expect(200);
      expect(verify.body).toMatchObject({ ok: true, legacyEvents: 0 });
      const chained = await gateway.app
        .get(PrismaService)
        .auditEvent.groupBy({ by: ['chainKey'], _count: true });
      expect(chained.map((row) => row.chainKey).sort()).toEqual(['v1', 'v2']);
    });
    await expect(start(master, v2)).rejects.toThrow(
      /^AUDIT_CHAIN_KEYS lacks key v1, which chained audit events still kept/,
    );
  });
});
