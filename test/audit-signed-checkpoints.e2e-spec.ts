import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify, createLocalJWKSet } from 'jose';
import { auditEventDigest } from '../src/audit/audit-chain';
import { AuditCheckpointService } from '../src/audit/audit-checkpoint.service';
import { AuditCheckpointsRepository } from '../src/audit/audit-checkpoints.repository';
import { AuditEventsRepository } from '../src/audit/audit-events.repository';
import { AuditService } from '../src/audit/audit.service';
import { backfillDigests } from '../src/audit/digest-backfill';
import { AuditSigningKeys, generateSigningKeyText, parseSigningKeys } from '../src/crypto/audit-signing-keys';
import { PrismaService } from '../src/database/prisma.service';
import { bearer, createTenant, TestTenant } from './support/fixtures';
import { startGateway, TestGateway } from './support/gateway';
import { plantedAction } from './support/planted-action';

const TOOL = join(__dirname, '..', 'tools', 'verify-audit-log.mjs');
const actor = { actor: 'key:signed-test', onBehalfOf: null, keyId: null, requestId: 'signed' };

interface ExportedEvent {
  tenantId: string;
  seq: number;
  at: string;
  actor: string;
  onBehalfOf: string | null;
  action: string;
  target: string | null;
  requestId: string;
  outcome: string;
  httpStatus: number | null;
  details: unknown;
  prevDigest: string;
  digest: string;
}

/** The public chain as anyone can compute it: what a forger without a signing key can do. */
function rechained(events: ExportedEvent[]): ExportedEvent[] {
  let prevDigest = events[0].prevDigest;
  return events.map((event) => {
    const digest = auditEventDigest({ ...event, at: new Date(event.at) }, prevDigest);
    const linked = { ...event, prevDigest, digest };
    prevDigest = digest;
    return linked;
  });
}

describe('signed audit checkpoints and the offline verifier (e2e)', () => {
  let gateway: TestGateway;
  let prisma: PrismaService;
  let folder: string;
  let keysFile: string;
  let tenant: TestTenant;

  const auditor = (who: TestTenant = tenant) => bearer(who.keys.auditor);
  const record = (tenantId: string, count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, index) =>
        gateway.app.get(AuditService).record(actor, {
          tenantId,
          action: plantedAction('test.signed'),
          target: `item:${index}`,
          outcome: 'succeeded',
          details: { index, note: 'é𝄞"\\' },
        }),
      ),
    );
  const exportOf = async (who: TestTenant = tenant, query = '') => {
    const response = await gateway.http.get(`/v1/audit/export${query}`).set(auditor(who)).expect(200);
    return response.text;
  };
  const eventsOf = (text: string) =>
    text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as ExportedEvent | { checkpoint: string })
      .filter((line): line is ExportedEvent => !('checkpoint' in line));
  const checkpointLinesOf = (text: string) =>
    text
      .trimEnd()
      .split('\n')
      .filter((line) => line.startsWith('{"checkpoint":'));
  const ndjson = (lines: Array<ExportedEvent | string>) =>
    lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';

  /** Runs the verifier on `text` (and `keys`, else the gateway's JWKS): its exit code and what it printed. */
  function verifyOffline(text: string, keys?: unknown): { status: number | null; out: string } {
    const log = join(folder, `log-${Math.random().toString(36).slice(2)}.ndjson`);
    writeFileSync(log, text);
    let keysPath = keysFile;
    if (keys !== undefined) {
      keysPath = join(folder, `keys-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(keysPath, JSON.stringify(keys));
    }
    const run = spawnSync(process.execPath, [TOOL, log, '--keys', keysPath], { encoding: 'utf8' });
    return { status: run.status, out: `${run.stdout}${run.stderr}` };
  }

  beforeAll(async () => {
    gateway = await startGateway();
    prisma = gateway.app.get(PrismaService);
    folder = mkdtempSync(join(tmpdir(), 'audit-verify-'));
    const jwks = await gateway.http.get('/v1/audit/signing-keys').expect(200);
    keysFile = join(folder, 'signing-keys.json');
    writeFileSync(keysFile, JSON.stringify(jwks.body));
    tenant = await createTenant(gateway);
    await record(tenant.id, 12);
  });
  afterAll(async () => {
    await gateway.close();
    rmSync(folder, { recursive: true, force: true });
  });

  describe('GET /v1/audit/signing-keys', () => {
    it('answers the public keys as a JWKS, with no credential, and never a private part', async () => {
      const response = await gateway.http.get('/v1/audit/signing-keys').expect(200);
      expect(response.body).toEqual({
        keys: [
          {
            kty: 'OKP',
            crv: 'Ed25519',
            x: expect.stringMatching(/^[\w-]{43}$/),
            kid: expect.stringMatching(/^audit-\d{4}-\d\d-\d\d$/),
            alg: 'EdDSA',
            use: 'sig',
          },
        ],
      });
      expect(response.text).not.toContain('"d"');
    });
  });

  describe('GET /v1/audit/checkpoint', () => {
    it('signs the head digest as a JWS any EdDSA library verifies with the JWKS, and keeps it', async () => {
      const checkpoint = (await gateway.http.get('/v1/audit/checkpoint').set(auditor()).expect(200)).body;
      const head = eventsOf(await exportOf()).at(-1)!;
      expect(checkpoint).toMatchObject({ tenantId: tenant.id, seq: head.seq, digest: head.digest });
      const jwks = (await gateway.http.get('/v1/audit/signing-keys').expect(200)).body;
      const { payload, protectedHeader } = await compactVerify(checkpoint.jws, createLocalJWKSet(jwks));
      expect(protectedHeader).toEqual({
        alg: 'EdDSA',
        kid: jwks.keys[0].kid,
        typ: 'pipes-gateway.audit-checkpoint',
      });
      expect(JSON.parse(Buffer.from(payload).toString())).toEqual({
        tenantId: tenant.id,
        seq: head.seq,
        digest: head.digest,
        at: checkpoint.at,
      });
      // The keyed checkpoint still verifies as before, sent back whole.
      const verdict = await gateway.http
        .post('/v1/audit/verify')
        .set(auditor())
        .send({ checkpoint })
        .expect(200);
      expect(verdict.body).toMatchObject({ ok: true, checkpoint: { seq: head.seq, status: 'reached' } });
      const kept = await gateway.app.get(AuditCheckpointsRepository).after(0n, 100_000);
      expect(kept.filter((row) => row.jws === checkpoint.jws)).toEqual([
        expect.objectContaining({ tenantId: tenant.id, seq: head.seq, digest: head.digest }),
      ]);
    });
  });

  describe('GET /v1/audit/export', () => {
    it('ends with the signed checkpoint of its last event, and the verifier says ok offline', async () => {
      const text = await exportOf();
      const lines = text.trimEnd().split('\n');
      const events = eventsOf(text);
      expect(lines).toHaveLength(events.length + 1);
      expect(JSON.parse(lines.at(-1)!)).toEqual({
        checkpoint: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      });
      const result = verifyOffline(text);
      expect(result).toEqual({
        status: 0,
        out: expect.stringMatching(
          new RegExp(
            `^ok  tenant ${tenant.id}: seq 1\\.\\.${events.length} \\(${events.length} events\\), signed by audit-`,
          ),
        ),
      });
    });

    it('verifies a range cut by from/to, whose first event does not start the chain', async () => {
      const all = eventsOf(await exportOf());
      const from = all[4].at;
      const text = await exportOf(tenant, `?from=${encodeURIComponent(from)}`);
      const first = eventsOf(text)[0].seq;
      expect(first).toBeGreaterThan(1);
      expect(verifyOffline(text).out).toMatch(new RegExp(`^ok  tenant ${tenant.id}: seq ${first}\\.\\.`));
    });
  });

  describe('the offline verifier finds every kind of tampering', () => {
    let text: string;
    let events: ExportedEvent[];
    let checkpoint: string;

    beforeAll(async () => {
      text = await exportOf();
      events = eventsOf(text);
      checkpoint = checkpointLinesOf(text)[0];
    });

    const expectFailure = (result: { status: number | null; out: string }, pattern: RegExp) => {
      expect(result.status).toBe(1);
      expect(result.out).toMatch(pattern);
      expect(result.out).not.toMatch(/^ok/m);
    };

    it('an edited event', () => {
      const edited = events.map((event) => (event.seq === 5 ? { ...event, outcome: 'failed' } : event));
      expectFailure(verifyOffline(ndjson([...edited, checkpoint])), /seq 5 altered/);
    });

    it('an edited event with the public chain recomputed after it', () => {
      const edited = rechained(
        events.map((event) => (event.seq === 5 ? { ...event, outcome: 'failed' } : event)),
      );
      expectFailure(verifyOffline(ndjson([...edited, checkpoint])), /seq 1 checkpoint mismatch/);
    });

    it('a deleted event', () => {
      const deleted = events.filter((event) => event.seq !== 7);
      expectFailure(verifyOffline(ndjson([...deleted, checkpoint])), /seq 7 missing/);
    });

    it('an inserted event, with the seqs and the public chain after it recomputed', () => {
      const fake = { ...events[5], actor: 'key:intruder', requestId: 'forged' };
      const inserted = rechained(
        [...events.slice(0, 6), fake, ...events.slice(6)].map((event, index) => ({
          ...event,
          seq: index + 1,
        })),
      );
      expectFailure(verifyOffline(ndjson([...inserted, checkpoint])), /checkpoint mismatch/);
    });

    it('an inserted event beside the genuine one', () => {
      const fake = rechained([{ ...events[5], actor: 'key:intruder' }])[0];
      const inserted = [...events.slice(0, 5), fake, ...events.slice(5)];
      expectFailure(verifyOffline(ndjson([...inserted, checkpoint])), /seq 6 out of place/);
    });

    it('two events swapped', () => {
      const swapped = [...events.slice(0, 3), events[4], events[3], ...events.slice(5)];
      expectFailure(
        verifyOffline(ndjson([...swapped, checkpoint])),
        /seq 4 out of place: it comes after seq 5/,
      );
    });

    it('the tail cut, with the checkpoint kept', () => {
      const cut = events.slice(0, -2);
      expectFailure(
        verifyOffline(ndjson([...cut, checkpoint])),
        new RegExp(`seq ${events.length - 1} missing: a checkpoint signed seq ${events.length}`),
      );
    });

    it('the tail cut with the checkpoint: the events are unsigned', () => {
      expectFailure(verifyOffline(ndjson(events.slice(0, -2))), /seq 1 unsigned/);
    });

    it('events after the last checkpoint are unsigned', async () => {
      await record(tenant.id, 1);
      const later = eventsOf(await exportOf()).at(-1)!;
      expectFailure(
        verifyOffline(ndjson([...events, checkpoint, later])),
        new RegExp(`seq ${later.seq} unsigned`),
      );
    });

    it('a forged checkpoint: its content changed, or signed with a key of the same id', () => {
      const [header, , signature] = (JSON.parse(checkpoint) as { checkpoint: string }).checkpoint.split('.');
      const claim = { tenantId: tenant.id, seq: 3, digest: events[2].digest, at: new Date().toISOString() };
      const altered = `${header}.${Buffer.from(JSON.stringify(claim)).toString('base64url')}.${signature}`;
      expectFailure(
        verifyOffline(ndjson([...events.slice(0, 3), JSON.stringify({ checkpoint: altered })])),
        /the checkpoint has a signature that does not verify/,
      );
    });

    it('the wrong keys: another key under the same id, or none with its id', () => {
      const genuine = JSON.parse(readFileSync(keysFile, 'utf8')) as {
        keys: Array<{ kid: string; x: string }>;
      };
      const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
      const sameId = { keys: [{ ...genuine.keys[0], x: other.x }] };
      expectFailure(verifyOffline(text, sameId), /the checkpoint has a signature that does not verify/);
      const otherId = { keys: [{ ...genuine.keys[0], kid: 'someone-else' }] };
      expectFailure(verifyOffline(text, otherId), /which the keys file does not hold/);
    });

    it('a line that is neither an event nor a checkpoint', () => {
      const result = verifyOffline(`${text}{"hello":1}\n`);
      expect(result.status).toBe(1);
      expect(result.out).toMatch(/^FAILED {2}line \d+ is neither an event nor a checkpoint/);
    });
  });

  it('verifies several tenants interleaved, with events delivered twice, as a sink receives them', async () => {
    const other = await createTenant(gateway);
    await record(other.id, 4);
    const mine = (await exportOf()).trimEnd().split('\n');
    const theirs = (await exportOf(other)).trimEnd().split('\n');
    const mixed: string[] = [];
    for (let index = 0; index < Math.max(mine.length, theirs.length); index++) {
      if (index < theirs.length) mixed.push(theirs[index]);
      if (index < mine.length) mixed.push(mine[index]);
      if (index === 2) mixed.push(mine[1], theirs[2]);
    }
    const result = verifyOffline(`${mixed.join('\n')}\n`);
    expect(result.status).toBe(0);
    const verdicts = result.out.trimEnd().split('\n');
    expect(verdicts).toHaveLength(2);
    for (const id of [tenant.id, other.id])
      expect(verdicts.filter((line) => line.startsWith(`ok  tenant ${id}: seq 1..`))).toHaveLength(1);
  });

  describe('GET /v1/audit/verify checks the public chain too', () => {
    it('finds a digest or prevDigest changed in the database: digest mismatch', async () => {
      for (const column of ['digest', 'prevDigest'] as const) {
        const fresh = await createTenant(gateway);
        await record(fresh.id, 3);
        await prisma.auditEvent.update({
          where: { tenantId_seq: { tenantId: fresh.id, seq: 4 } },
          data: { [column]: 'f'.repeat(64) },
        });
        const verdict = await gateway.http.get('/v1/audit/verify').set(auditor(fresh)).expect(200);
        expect(verdict.body).toEqual({ ok: false, checked: 3, firstBadSeq: 4, reason: 'digest mismatch' });
      }
    });
  });

  describe('digests of events written without them', () => {
    it('are computed at start, and appends meanwhile chain on once they are', async () => {
      const fresh = await createTenant(gateway);
      await record(fresh.id, 6);
      const before = await prisma.auditEvent.findMany({
        where: { tenantId: fresh.id },
        orderBy: { seq: 'asc' },
      });
      // As a database from before the public chain: no digests from seq 3 on.
      await prisma.auditEvent.updateMany({
        where: { tenantId: fresh.id, seq: { gte: 3 } },
        data: { digest: null, prevDigest: null },
      });
      await record(fresh.id, 1);
      const written = await prisma.auditEvent.findUniqueOrThrow({
        where: { tenantId_seq: { tenantId: fresh.id, seq: before.length + 1 } },
      });
      expect(written.digest).toBeNull();
      const unverified = await gateway.http.get('/v1/audit/verify').set(auditor(fresh)).expect(200);
      expect(unverified.body).toMatchObject({ ok: false, firstBadSeq: 3, reason: 'digest mismatch' });

      const computed = await backfillDigests(prisma, gateway.app.get(AuditEventsRepository));
      expect(computed).toBeGreaterThanOrEqual(before.length - 2 + 1);
      const after = await prisma.auditEvent.findMany({
        where: { tenantId: fresh.id },
        orderBy: { seq: 'asc' },
      });
      expect(after.slice(0, before.length).map((row) => row.digest)).toEqual(before.map((row) => row.digest));
      await record(fresh.id, 1);
      const verdict = await gateway.http.get('/v1/audit/verify').set(auditor(fresh)).expect(200);
      expect(verdict.body).toMatchObject({ ok: true, lastSeq: before.length + 2 });
      expect(verifyOffline(await exportOf(fresh)).status).toBe(0);
      expect(await backfillDigests(prisma, gateway.app.get(AuditEventsRepository))).toBe(0);
    });
  });

  describe('GET /v1/audit/verify?from=checkpoint', () => {
    const verify = async (who: TestTenant, query = '') =>
      (await gateway.http.get(`/v1/audit/verify${query}`).set(auditor(who)).expect(200)).body as Record<
        string,
        unknown
      >;
    /** A tenant with events on both sides of a kept checkpoint: the checkpoint's seq. */
    const withCheckpoint = async (who: TestTenant): Promise<number> => {
      await record(who.id, 4);
      const checkpoint = await gateway.http.get('/v1/audit/checkpoint').set(auditor(who)).expect(200);
      await record(who.id, 3);
      return checkpoint.body.seq as number;
    };
    const edit = (who: TestTenant, seq: number, data: { outcome?: 'failed'; digest?: string }) =>
      prisma.auditEvent.update({ where: { tenantId_seq: { tenantId: who.id, seq } }, data });

    it('recomputes only the events appended since, the chain passing through the checkpoint', async () => {
      const fresh = await createTenant(gateway);
      const seq = await withCheckpoint(fresh);
      const whole = await verify(fresh);
      expect(whole).toMatchObject({ ok: true });
      expect(await verify(fresh, '?from=checkpoint')).toEqual({
        ...whole,
        checked: (whole.lastSeq as number) - seq,
        checkpoint: { seq, status: 'reached' },
      });
    });

    it('finds an edit after the checkpoint, and leaves those before it to the whole verification', async () => {
      const fresh = await createTenant(gateway);
      const seq = await withCheckpoint(fresh);
      await edit(fresh, seq - 1, { outcome: 'failed' });
      expect(await verify(fresh, '?from=checkpoint')).toMatchObject({ ok: true });
      expect(await verify(fresh)).toMatchObject({ ok: false, firstBadSeq: seq - 1, reason: 'hash mismatch' });
      await edit(fresh, seq + 2, { outcome: 'failed' });
      expect(await verify(fresh, '?from=checkpoint')).toEqual({
        ok: false,
        checked: 1,
        firstBadSeq: seq + 2,
        reason: 'hash mismatch',
      });
    });

    it('fails when the event at the checkpoint no longer carries the digest signed', async () => {
      const fresh = await createTenant(gateway);
      const seq = await withCheckpoint(fresh);
      await edit(fresh, seq, { digest: 'f'.repeat(64) });
      expect(await verify(fresh, '?from=checkpoint')).toEqual({
        ok: false,
        checked: 0,
        firstBadSeq: seq,
        reason: 'checkpoint mismatch',
      });
    });

    it('verifies from the start without a kept checkpoint, or with one no configured key signed', async () => {
      const fresh = await createTenant(gateway);
      await record(fresh.id, 3);
      expect(await verify(fresh, '?from=checkpoint')).toEqual(await verify(fresh));
      const seq = await withCheckpoint(fresh);
      const forger = new AuditSigningKeys(parseSigningKeys(generateSigningKeyText('audit-forger')));
      const digest = (
        await prisma.auditEvent.findUniqueOrThrow({
          where: { tenantId_seq: { tenantId: fresh.id, seq } },
        })
      ).digest!;
      const jws = await forger.sign({ tenantId: fresh.id, seq, digest, at: new Date().toISOString() });
      await prisma.auditCheckpoint.updateMany({ where: { tenantId: fresh.id }, data: { jws } });
      expect(await verify(fresh, '?from=checkpoint')).toEqual(await verify(fresh));
    });
  });

  it('signs and keeps a checkpoint for each tenant whose head moved, readable after a cursor', async () => {
    const moved = await createTenant(gateway);
    await record(moved.id, 2);
    const repository = gateway.app.get(AuditCheckpointsRepository);
    const newest = async () => (await repository.after(0n, 1_000_000)).at(-1)?.id ?? 0n;
    const cursor = await newest();
    const service = gateway.app.get(AuditCheckpointService);
    await service.logMovedHeads();
    const signed = (await repository.after(cursor, 1000)).filter((row) => row.tenantId === moved.id);
    await service.logMovedHeads();
    expect((await repository.after(cursor, 1000)).filter((row) => row.tenantId === moved.id)).toHaveLength(1);
    // (An export signs and keeps a checkpoint of its own.)
    const events = eventsOf(await exportOf(moved));
    expect(signed).toEqual([expect.objectContaining({ seq: events.length, digest: events.at(-1)!.digest })]);
    // A sink's copy: the events, then the checkpoint it read from the table.
    expect(verifyOffline(ndjson([...events, JSON.stringify({ checkpoint: signed[0].jws })])).status).toBe(0);
  });
});

describe('AUDIT_SIGNING_KEYS rotation (e2e)', () => {
  it('signs with the first key and publishes the older ones, which still verify their checkpoints', async () => {
    const older = generateSigningKeyText('audit-old');
    const newer = generateSigningKeyText('audit-new');
    const folder = mkdtempSync(join(tmpdir(), 'audit-rotate-'));
    const gateway = await startGateway({ AUDIT_SIGNING_KEYS: `${newer},${older}` });
    try {
      const tenant = await createTenant(gateway);
      const jwks = (await gateway.http.get('/v1/audit/signing-keys').expect(200)).body as {
        keys: { kid: string }[];
      };
      expect(jwks.keys.map((key) => key.kid)).toEqual(['audit-new', 'audit-old']);
      const exported = (
        await gateway.http.get('/v1/audit/export').set(bearer(tenant.keys.auditor)).expect(200)
      ).text;
      const lines = exported.trimEnd().split('\n');
      const { jws } = (
        await gateway.http.get('/v1/audit/checkpoint').set(bearer(tenant.keys.auditor)).expect(200)
      ).body as { jws: string };
      expect(JSON.parse(Buffer.from(jws.split('.')[0], 'base64url').toString())).toMatchObject({
        kid: 'audit-new',
      });
      // The same head as the gateway signed it before the rotation, with the key now second.
      const last = JSON.parse(lines.at(-2)!) as ExportedEvent;
      const before = await new AuditSigningKeys(parseSigningKeys(older)).sign({
        tenantId: tenant.id,
        seq: last.seq,
        digest: last.digest,
        at: new Date().toISOString(),
      });
      writeFileSync(join(folder, 'keys.json'), JSON.stringify(jwks));
      writeFileSync(
        join(folder, 'before.ndjson'),
        [...lines.slice(0, -1), JSON.stringify({ checkpoint: before })].join('\n'),
      );
      const run = spawnSync(
        process.execPath,
        [TOOL, join(folder, 'before.ndjson'), '--keys', join(folder, 'keys.json')],
        { encoding: 'utf8' },
      );
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/^ok .* signed by audit-old/);
    } finally {
      await gateway.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
