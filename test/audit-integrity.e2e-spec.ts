/**
 * What a database writer who does not hold AUDIT_CHAIN_KEYS can and cannot do to the audit chain
 * unnoticed. Each test tampers with one tenant's rows directly, as such a writer would.
 */
import { AuditCheckpointService } from '../src/audit/audit-checkpoint.service';
import { signLegacyEnd } from '../src/audit/audit-checkpoint';
import { AuditService } from '../src/audit/audit.service';
import { AuditChainKeys } from '../src/crypto/audit-chain-keys';
import { generateKeyText, parseKeyRing } from '../src/crypto/key-ring';
import { PrismaService } from '../src/database/prisma.service';
import { auditTampering, type AuditTampering } from './support/audit-tampering';
import { bearer, createTenant, type TestTenant } from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';
import { plantedAction } from './support/planted-action';

const actor = { actor: 'key:integrity-test', onBehalfOf: null, keyId: null, requestId: 'integrity' };

describe('audit chain integrity (e2e)', () => {
  let gateway: TestGateway;
  let prisma: PrismaService;
  let tampering: AuditTampering;

  beforeAll(async () => {
    gateway = await startGateway();
    prisma = gateway.app.get(PrismaService);
    tampering = auditTampering(gateway);
  });
  afterAll(() => gateway.close());

  const auditor = (tenant: TestTenant) => bearer(tenant.keys.auditor);
  const verify = async (tenant: TestTenant) =>
    (await gateway.http.get('/v1/audit/verify').set(auditor(tenant)).expect(200)).body as Record<
      string,
      unknown
    >;
  const verifyAgainst = (tenant: TestTenant, checkpoint: unknown) =>
    gateway.http.post('/v1/audit/verify').set(auditor(tenant)).send({ checkpoint });
  const checkpointOf = async (tenant: TestTenant) =>
    (await gateway.http.get('/v1/audit/checkpoint').set(auditor(tenant)).expect(200)).body as Record<
      string,
      unknown
    >;

  /** A tenant with `count` test events after the ones its creation recorded (five: tenant, four keys). */
  async function tenantWithEvents(count = 10): Promise<TestTenant> {
    const tenant = await createTenant(gateway);
    const audit = gateway.app.get(AuditService);
    for (let i = 0; i < count; i++) {
      await audit.record(actor, {
        tenantId: tenant.id,
        action: plantedAction('test.event'),
        target: `item:${i}`,
        outcome: 'succeeded',
      });
    }
    return tenant;
  }

  describe('rewriting events', () => {
    it('finds an event edited with every hash after it recomputed as plain SHA-256', async () => {
      const tenant = await tenantWithEvents();
      await tampering.rewrite(
        tenant.id,
        tampering.rehashedFrom(await tampering.events(tenant.id), 8, { edit: true }),
      );
      expect(await verify(tenant)).toEqual({
        ok: false,
        checked: 7,
        firstBadSeq: 8,
        reason: 'hash mismatch',
      });
    });

    it('finds the same rewrite passed off as events from before keyed chaining', async () => {
      const tenant = await tenantWithEvents();
      await tampering.rewrite(
        tenant.id,
        tampering.rehashedFrom(await tampering.events(tenant.id), 8, { edit: true, asLegacy: true }),
      );
      expect(await verify(tenant)).toEqual({
        ok: false,
        checked: 7,
        firstBadSeq: 8,
        reason: 'unkeyed event',
      });
    });

    it('finds a prefix deleted and the chain start moved past it', async () => {
      const tenant = await tenantWithEvents();
      const [sixth] = (await tampering.events(tenant.id)).filter((row) => row.seq === 6);
      await prisma.auditEvent.deleteMany({ where: { tenantId: tenant.id, seq: { lt: 6 } } });
      await prisma.auditChain.update({
        where: { tenantId: tenant.id },
        data: { startSeq: 6, startHash: sixth.prevHash },
      });
      expect(await verify(tenant)).toEqual({
        ok: false,
        checked: 0,
        firstBadSeq: 6,
        reason: 'undeclared start',
      });
    });
  });

  describe('a whole chain rewritten as if chained before keyed chaining', () => {
    it('is reported at its first event: a tenant created since has no legacy events', async () => {
      const tenant = await tenantWithEvents(40);
      await tampering.rewrite(
        tenant.id,
        tampering.rehashedFrom(await tampering.events(tenant.id), 1, { asLegacy: true }),
      );
      expect(await verify(tenant)).toEqual({
        ok: false,
        checked: 0,
        firstBadSeq: 1,
        reason: 'unkeyed event',
      });
    });

    it('is reported all the same with a legacy end forged, or copied from another tenant', async () => {
      const tenant = await tenantWithEvents(3);
      const other = await tenantWithEvents(3);
      const rows = tampering.rehashedFrom(await tampering.events(tenant.id), 1, { asLegacy: true });
      await tampering.rewrite(tenant.id, rows);
      const last = rows[rows.length - 1];
      const keys = gateway.app.get(AuditChainKeys);
      // A genuine legacy end, but another tenant's; and this tenant's, signed with another key.
      const copied = signLegacyEnd(keys, { tenantId: other.id, seq: last.seq, hash: last.hash });
      const forged = signLegacyEnd(new AuditChainKeys(parseKeyRing(generateKeyText('v1'))), {
        tenantId: tenant.id,
        seq: last.seq,
        hash: last.hash,
      });
      for (const end of [copied, forged]) {
        await prisma.auditChain.update({
          where: { tenantId: tenant.id },
          data: {
            legacyEndSeq: last.seq,
            legacyEndHash: last.hash,
            legacyEndKeyVersion: end.keyVersion,
            legacyEndSignature: end.signature,
          },
        });
        expect(await verify(tenant)).toEqual({
          ok: false,
          checked: 0,
          firstBadSeq: 1,
          reason: 'unkeyed event',
        });
      }
    });
  });

  describe('checkpoints', () => {
    it('signs the head, writes it to the log, and verifies against it while the chain grows', async () => {
      const tenant = await tenantWithEvents(3);
      const checkpoint = await checkpointOf(tenant);
      expect(checkpoint).toEqual({
        tenantId: tenant.id,
        seq: 8,
        hash: (await prisma.auditChain.findUniqueOrThrow({ where: { tenantId: tenant.id } })).lastHash,
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        keyVersion: 'v1',
        signature: expect.stringMatching(/^[0-9a-f]{64}$/),
        digest: (await tampering.events(tenant.id))[7].digest,
        jws: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      });
      expect(gateway.logs.entries()).toContainEqual(
        expect.objectContaining({ msg: 'audit chain checkpoint', checkpoint }),
      );
      await gateway.app
        .get(AuditService)
        .record(actor, { tenantId: tenant.id, action: plantedAction('test.event'), outcome: 'succeeded' });
      const verdict = await verifyAgainst(tenant, checkpoint).expect(200);
      expect(verdict.body).toMatchObject({ ok: true, checked: 9, checkpoint: { seq: 8, status: 'reached' } });
    });

    it('finds the newest events cut off and the head moved back: truncated', async () => {
      const tenant = await tenantWithEvents();
      const checkpoint = await checkpointOf(tenant);
      const rows = await tampering.events(tenant.id);
      const keep = rows.filter((row) => row.seq <= 11);
      await prisma.auditEvent.deleteMany({ where: { tenantId: tenant.id, seq: { gt: 11 } } });
      await prisma.auditChain.update({
        where: { tenantId: tenant.id },
        data: { lastSeq: 11, lastHash: keep[keep.length - 1].hash },
      });
      // Without the checkpoint the shorter chain is consistent; with it, the cut shows.
      expect(await verify(tenant)).toMatchObject({ ok: true, lastSeq: 11 });
      const verdict = await verifyAgainst(tenant, checkpoint).expect(200);
      expect(verdict.body).toEqual({ ok: false, checked: 11, firstBadSeq: 12, reason: 'truncated' });
    });

    it('finds the cut refilled with other events: checkpoint mismatch', async () => {
      const tenant = await tenantWithEvents(3);
      const checkpoint = await checkpointOf(tenant);
      const keep = (await tampering.events(tenant.id)).filter((row) => row.seq <= 6);
      await prisma.auditEvent.deleteMany({ where: { tenantId: tenant.id, seq: { gt: 6 } } });
      await prisma.auditChain.update({
        where: { tenantId: tenant.id },
        data: { lastSeq: 6, lastHash: keep[keep.length - 1].hash },
      });
      // The gateway knows nothing of the cut and appends on: new events take the old seqs.
      const audit = gateway.app.get(AuditService);
      for (let i = 0; i < 3; i++)
        await audit.record(actor, {
          tenantId: tenant.id,
          action: plantedAction('test.refill'),
          outcome: 'succeeded',
        });
      expect(await verify(tenant)).toMatchObject({ ok: true, lastSeq: 9 });
      const verdict = await verifyAgainst(tenant, checkpoint).expect(200);
      expect(verdict.body).toEqual({ ok: false, checked: 7, firstBadSeq: 8, reason: 'checkpoint mismatch' });
    });

    it('refuses a checkpoint it did not sign, or signed for another tenant, with 422', async () => {
      const tenant = await tenantWithEvents(1);
      const other = await tenantWithEvents(1);
      const checkpoint = await checkpointOf(tenant);
      for (const forged of [
        { ...checkpoint, seq: (checkpoint.seq as number) - 1 },
        { ...checkpoint, signature: 'a'.repeat(64) },
        { ...checkpoint, keyVersion: 'v9' },
      ]) {
        const refused = await verifyAgainst(tenant, forged).expect(422);
        expect(refused.body.type).toMatch(/checkpoint-not-genuine$/);
      }
      await verifyAgainst(other, checkpoint).expect(422);
      const malformed = await verifyAgainst(tenant, { ...checkpoint, hash: 'not hex' }).expect(400);
      expect(malformed.body.errors).toEqual([{ path: 'checkpoint.hash', message: expect.any(String) }]);
      for (const missing of [undefined, 'a string']) {
        const refused = await verifyAgainst(tenant, missing).expect(400);
        expect(refused.body.errors).toEqual([{ path: 'checkpoint', message: expect.any(String) }]);
      }
    });

    it('writes a checkpoint to the log for each tenant whose head moved, at each interval', async () => {
      const moved = await tenantWithEvents(1);
      const checkpoints = gateway.app.get(AuditCheckpointService);
      const logged = () =>
        gateway.logs
          .entries()
          .filter((entry) => (entry.checkpoint as { tenantId?: string } | undefined)?.tenantId === moved.id);
      await checkpoints.logMovedHeads();
      expect(logged()).toHaveLength(1);
      await checkpoints.logMovedHeads();
      expect(logged()).toHaveLength(1);
      await gateway.app
        .get(AuditService)
        .record(actor, { tenantId: moved.id, action: plantedAction('test.event'), outcome: 'succeeded' });
      await checkpoints.logMovedHeads();
      expect(logged().map((entry) => (entry.checkpoint as { seq: number }).seq)).toEqual([6, 7]);
      // What was logged verifies like a checkpoint an auditor kept.
      const verdict = await verifyAgainst(moved, logged()[0].checkpoint).expect(200);
      expect(verdict.body).toMatchObject({ ok: true, checkpoint: { seq: 6, status: 'reached' } });
    });
  });
});
