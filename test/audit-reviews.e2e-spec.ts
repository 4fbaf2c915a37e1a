/**
 * Sign-off of the audit log: an auditor's review is an `audit.review` event of the chain naming the
 * range it covers, so it verifies with the chain, online and offline; ranges never overlap, and
 * where review stands (the latest one and what came after it) is one read away.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bearer, createTenant, type TestTenant } from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';

const VERIFIER = join(__dirname, '..', 'tools', 'verify-audit-log.mjs');

interface Review {
  seq: number;
  at: string;
  fromSeq: number;
  throughSeq: number;
  throughDigest: string | null;
  reviewer: { actor: string; name: string | null; onBehalfOf: string | null };
  note: string | null;
}

describe('audit reviews (e2e)', () => {
  let gateway: TestGateway;
  let tenant: TestTenant;
  let folder: string;

  beforeAll(async () => {
    gateway = await startGateway();
    tenant = await createTenant(gateway);
    folder = mkdtempSync(join(tmpdir(), 'audit-reviews-'));
  });
  afterAll(async () => {
    await gateway.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const auditor = (who: TestTenant = tenant) => bearer(who.keys.auditor);
  const review = (body: object, who: Record<string, string> = auditor()) =>
    gateway.http.post('/v1/audit/reviews').set(who).send(body);
  const status = async (who: TestTenant = tenant) =>
    (await gateway.http.get('/v1/audit/reviews/latest').set(auditor(who)).expect(200)).body as {
      latest: Review | null;
      headSeq: number;
      unreviewedEvents: number;
    };
  /** Something the log records: a credential stored by the tenant's admin. */
  const change = (who: TestTenant = tenant) =>
    gateway.http
      .post('/v1/credentials')
      .set(bearer(who.keys.admin))
      .send({ kind: 'secret', name: `s-${Math.random().toString(36).slice(2)}`, value: 'v' })
      .expect(201);
  const eventAt = async (seq: number) => {
    const page = await gateway.http.get('/v1/audit').set(auditor()).query({ limit: '200' }).expect(200);
    return (page.body.items as { seq: number }[]).find((item) => item.seq === seq) as
      Record<string, unknown> | undefined;
  };

  it('answers where review stands before the first one: nothing reviewed, every event new', async () => {
    await change();
    const before = await status();
    expect(before.latest).toBeNull();
    expect(before.headSeq).toBeGreaterThan(0);
    expect(before.unreviewedEvents).toBe(before.headSeq);
  });

  it('records a review as an audit.review event naming the range, the reviewer and the note', async () => {
    const { headSeq } = await status();
    const answer = await review({ throughSeq: headSeq, note: 'Monthly review: nothing unexplained.' }).expect(
      201,
    );
    const recorded = answer.body as Review;
    const last = await eventAt(headSeq);
    expect(recorded).toEqual({
      seq: headSeq + 1,
      at: expect.any(String),
      fromSeq: 1,
      throughSeq: headSeq,
      throughDigest: last!.digest,
      reviewer: { actor: `key:${tenant.keyIds.auditor}`, name: 'auditor-key', onBehalfOf: null },
      note: 'Monthly review: nothing unexplained.',
    });
    expect(await eventAt(headSeq + 1)).toMatchObject({
      seq: headSeq + 1,
      at: recorded.at,
      action: 'audit.review',
      actor: `key:${tenant.keyIds.auditor}`,
      target: `tenant:${tenant.id}`,
      outcome: 'succeeded',
      httpStatus: 201,
      details: {
        fromSeq: 1,
        throughSeq: headSeq,
        throughDigest: last!.digest,
        note: 'Monthly review: nothing unexplained.',
      },
    });
    expect(await status()).toEqual({ latest: recorded, headSeq: headSeq + 1, unreviewedEvents: 0 });
  });

  it('counts what came after the reviewed range, the reviews themselves left out', async () => {
    const before = await status();
    await change();
    await change();
    expect(await status()).toEqual({ ...before, headSeq: before.headSeq + 2, unreviewedEvents: 2 });
  });

  it('starts the next review after the previous one, and names the person a frontend acted for', async () => {
    const before = await status();
    const answer = await review(
      { throughSeq: before.headSeq - 1 },
      { ...auditor(), 'X-On-Behalf-Of': 'dana@example.com' },
    ).expect(201);
    expect(answer.body).toMatchObject({
      fromSeq: before.latest!.throughSeq + 1,
      throughSeq: before.headSeq - 1,
      reviewer: {
        actor: `key:${tenant.keyIds.auditor}`,
        name: 'auditor-key',
        onBehalfOf: 'dana@example.com',
      },
      note: null,
    });
    // The one event left after the range, and not the review just made.
    expect((await status()).unreviewedEvents).toBe(1);
  });

  it('keeps the chain whole: the verify route and the offline verifier pass over reviews', async () => {
    expect((await gateway.http.get('/v1/audit/verify').set(auditor()).expect(200)).body).toMatchObject({
      ok: true,
    });
    const exported = await gateway.http.get('/v1/audit/export').set(auditor()).expect(200);
    expect(exported.text).toContain('"action":"audit.review"');
    const keys = (await gateway.http.get('/v1/audit/signing-keys').expect(200)).body;
    writeFileSync(join(folder, 'keys.json'), JSON.stringify(keys));
    writeFileSync(join(folder, 'log.ndjson'), exported.text);
    const run = spawnSync(
      process.execPath,
      [VERIFIER, join(folder, 'log.ndjson'), '--keys', join(folder, 'keys.json')],
      { encoding: 'utf8' },
    );
    expect(`${run.stdout}${run.stderr}`).toMatch(/ok/);
    expect(run.status).toBe(0);
  });

  it('refuses a range already reviewed, saying through which event and what may be reviewed', async () => {
    const { latest, headSeq } = await status();
    for (const throughSeq of [latest!.throughSeq, latest!.throughSeq - 1, 1]) {
      const refused = await review({ throughSeq }).expect(409);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.body).toMatchObject({
        type: 'https://pipes-gateway.dev/problems/range-already-reviewed',
        detail: expect.stringContaining(
          `The events through seq ${latest!.throughSeq} were already reviewed (event ${latest!.seq}, by key:${tenant.keyIds.auditor}`,
        ),
      });
      expect(refused.body.detail).toContain(
        `review through a seq from ${latest!.throughSeq + 1} to ${headSeq}`,
      );
    }
    expect((await status()).headSeq).toBe(headSeq);
  });

  it('refuses a range beyond the newest event', async () => {
    const { headSeq } = await status();
    const refused = await review({ throughSeq: headSeq + 1 }).expect(422);
    expect(refused.body).toMatchObject({
      type: 'https://pipes-gateway.dev/problems/review-beyond-head',
      detail: `throughSeq ${headSeq + 1} is beyond the newest event, seq ${headSeq}: a review covers events already written.`,
    });
    expect((await status()).headSeq).toBe(headSeq);
  });

  it('lets one of two reviews of the same range made at once through, and refuses the other', async () => {
    await change();
    const { headSeq } = await status();
    const answers = await Promise.all([review({ throughSeq: headSeq }), review({ throughSeq: headSeq })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect((await status()).headSeq).toBe(headSeq + 1);
  });

  it.each([
    ['no throughSeq', {}, 'throughSeq', 'is required'],
    ['throughSeq 0', { throughSeq: 0 }, 'throughSeq', 'must be a whole number from 1 to 2147483647'],
    ['throughSeq as text', { throughSeq: '3' }, 'throughSeq', 'must be a whole number from 1 to 2147483647'],
    ['a fraction', { throughSeq: 1.5 }, 'throughSeq', 'must be a whole number from 1 to 2147483647'],
    ['an empty note', { throughSeq: 1, note: '' }, 'note', 'must not be empty'],
    [
      'a note of 1001 characters',
      { throughSeq: 1, note: 'n'.repeat(1001) },
      'note',
      'must be at most 1000 characters long',
    ],
    [
      'a note of two lines',
      { throughSeq: 1, note: 'line one\nline two' },
      'note',
      'must not contain control, bidirectional-override or invisible characters',
    ],
    [
      'a note holding a gateway key',
      { throughSeq: 1, note: `pasted pgw_${'a'.repeat(20)}` },
      'note',
      'must not hold a secret (it looks like a gateway key)',
    ],
    ['a field it does not know', { throughSeq: 1, reviewer: 'someone' }, 'reviewer', 'is not a known field'],
  ])('refuses %s with a 400 naming the field, and records nothing', async (_case, body, path, message) => {
    const { headSeq } = await status();
    const refused = await review(body).expect(400);
    expect(refused.body.errors).toEqual([{ path, message }]);
    expect((await status()).headSeq).toBe(headSeq);
  });

  it('is the auditors’: other roles are refused, and another tenant has its own reviews', async () => {
    for (const role of ['admin', 'operator', 'viewer'] as const) {
      await review({ throughSeq: 1 }, bearer(tenant.keys[role])).expect(403);
      await gateway.http.get('/v1/audit/reviews/latest').set(bearer(tenant.keys[role])).expect(403);
    }
    await review({ throughSeq: 1 }, {}).expect(401);
    const other = await createTenant(gateway);
    expect((await status(other)).latest).toBeNull();
    const theirs = await review({ throughSeq: 1 }, auditor(other)).expect(201);
    expect(theirs.body).toMatchObject({ fromSeq: 1, throughSeq: 1 });
    expect((await status()).latest!.reviewer.actor).toBe(`key:${tenant.keyIds.auditor}`);
  });
});
