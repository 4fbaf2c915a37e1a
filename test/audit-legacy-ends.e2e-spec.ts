/**
 * Events chained before keyed chaining (plain SHA-256, no chain key) verify only up to where the
 * gateway recorded, signed, that they end: once, at the first start on a database that predates
 * the record. Each test runs gateways one after another on a database of its own, and tampers with
 * its rows as a database writer without AUDIT_CHAIN_KEYS would.
 */
import { createHmac } from 'node:crypto';
import { AuditService } from '../src/audit/audit.service';
import { AuditChainKeys } from '../src/crypto/audit-chain-keys';
import { parseKeyRing } from '../src/crypto/key-ring';
import { PrismaService } from '../src/database/prisma.service';
import { auditTampering } from './support/audit-tampering';
import { bearer, createTenant, type TestTenant } from './support/fixtures';
import { startGateway, TEST_AUDIT_CHAIN_KEYS, type TestGateway } from './support/gateway';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { plantedAction } from './support/planted-action';

const actor = { actor: 'key:legacy-test', onBehalfOf: null, keyId: null, requestId: 'legacy' };

describe('legacy audit events (e2e)', () => {
  // Each test starts gateways on a database of its own three times; an embedded one takes seconds
  // to open on a busy machine.
  jest.setTimeout(240_000);
  let scratch: ScratchDatabase;
  let gateway: TestGateway | undefined;

  beforeEach(async () => {
    scratch = await createScratchDatabase();
  });
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
    await scratch.drop();
  });

  async function restart(): Promise<TestGateway> {
    await gateway?.close();
    gateway = await startGateway(scratch.env);
    return gateway;
  }

  const verify = async (running: TestGateway, tenant: TestTenant) =>
    (await running.http.get('/v1/audit/verify').set(bearer(tenant.keys.auditor)).expect(200)).body as Record<
      string,
      unknown
    >;
  const record = (running: TestGateway, tenant: TestTenant) =>
    running.app
      .get(AuditService)
      .record(actor, { tenantId: tenant.id, action: plantedAction('test.event'), outcome: 'succeeded' });

  /** Rewrites the tenant's events from `seq` on as the gateway chained them before keyed chaining. */
  async function asLegacyFrom(running: TestGateway, tenant: TestTenant, seq: number): Promise<void> {
    const tampering = auditTampering(running);
    await tampering.rewrite(
      tenant.id,
      tampering.rehashedFrom(await tampering.events(tenant.id), seq, { asLegacy: true }),
    );
  }

  /** The seq of each recorded legacy end, by tenant. */
  const legacyEnds = async (running: TestGateway) =>
    Object.fromEntries(
      (
        await running.app.get(PrismaService).auditChain.findMany({ where: { legacyEndSeq: { not: null } } })
      ).map((chain) => [chain.tenantId, chain.legacyEndSeq]),
    );
  const chainKeyChecks = (running: TestGateway) =>
    running.app.get(PrismaService).keyCheck.findMany({ where: { purpose: 'audit-chain' } });

  it('on a database from before keyed chaining: recorded at the first start, and never again', async () => {
    // As a gateway from before keyed chaining left it: every event plain SHA-256, no chain key check.
    let running = await restart();
    const active = await createTenant(running);
    const idle = await createTenant(running);
    for (const tenant of [active, idle]) await asLegacyFrom(running, tenant, 1);
    await running.app.get(PrismaService).keyCheck.deleteMany({ where: { purpose: 'audit-chain' } });

    running = await restart();
    expect(await legacyEnds(running)).toEqual({ [active.id]: 5, [idle.id]: 5 });
    await record(running, active);
    expect(await verify(running, active)).toEqual({
      ok: true,
      checked: 6,
      lastSeq: 6,
      lastHash: expect.any(String),
      legacyEvents: 5,
    });
    expect(await verify(running, idle)).toMatchObject({ ok: true, checked: 5, legacyEvents: 5 });

    // A tenant created since, rewritten whole as legacy; the active tenant's keyed event too; and
    // the chain key checks deleted, as if this were a database from before keyed chaining.
    const newer = await createTenant(running);
    await asLegacyFrom(running, newer, 1);
    await asLegacyFrom(running, active, 6);
    await running.app.get(PrismaService).keyCheck.deleteMany({ where: { purpose: 'audit-chain' } });
    // Keyed events of other tenants are still there: the next start records nothing.
    const witness = await createTenant(running);
    running = await restart();
    expect(await legacyEnds(running)).toEqual({ [active.id]: 5, [idle.id]: 5 });
    expect(await verify(running, newer)).toEqual({
      ok: false,
      checked: 0,
      firstBadSeq: 1,
      reason: 'unkeyed event',
    });
    expect(await verify(running, active)).toEqual({
      ok: false,
      checked: 5,
      firstBadSeq: 6,
      reason: 'unkeyed event',
    });
    expect(await verify(running, idle)).toMatchObject({ ok: true, legacyEvents: 5 });
    expect(await verify(running, witness)).toMatchObject({ ok: true, legacyEvents: 0 });
  });

  it('on a database whose chain key checks predate the record: recorded, and the checks renewed', async () => {
    let running = await restart();
    // Chained before keyed chaining, then on with the key; chained before, idle since; keyed only.
    const mixed = await createTenant(running);
    await asLegacyFrom(running, mixed, 1);
    for (let i = 0; i < 3; i++) await record(running, mixed);
    const idle = await createTenant(running);
    await asLegacyFrom(running, idle, 1);
    const keyed = await createTenant(running);
    // The chain key check as a gateway that did not record legacy ends stored it.
    const key = parseKeyRing(TEST_AUDIT_CHAIN_KEYS).get('v1');
    const earlierCheck = createHmac('sha256', key)
      .update('pipes-gateway/key-check/v1\0audit-chain\0v1')
      .digest();
    await running.app.get(PrismaService).keyCheck.update({
      where: { purpose_keyVersion: { purpose: 'audit-chain', keyVersion: 'v1' } },
      data: { checkValue: new Uint8Array(earlierCheck) },
    });

    running = await restart();
    expect(await verify(running, mixed)).toMatchObject({ ok: true, checked: 8, legacyEvents: 5 });
    expect(await verify(running, idle)).toMatchObject({ ok: true, checked: 5, legacyEvents: 5 });
    expect(await verify(running, keyed)).toMatchObject({ ok: true, checked: 5, legacyEvents: 0 });
    const [check] = await chainKeyChecks(running);
    expect(running.app.get(AuditChainKeys).keyCheckMatches('v1', Buffer.from(check.checkValue))).toBe(true);

    // The keyed events rewritten as legacy, the legacy end removed: found, and still after a restart.
    await asLegacyFrom(running, mixed, 6);
    await running.app.get(PrismaService).auditChain.update({
      where: { tenantId: mixed.id },
      data: { legacyEndSeq: null, legacyEndHash: null, legacyEndKeyVersion: null, legacyEndSignature: null },
    });
    expect(await verify(running, mixed)).toMatchObject({
      ok: false,
      firstBadSeq: 1,
      reason: 'unkeyed event',
    });
    running = await restart();
    expect(await verify(running, mixed)).toMatchObject({
      ok: false,
      firstBadSeq: 1,
      reason: 'unkeyed event',
    });
  });
});
