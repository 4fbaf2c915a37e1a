import { randomUUID } from 'node:crypto';
import { PrismaService } from '../src/database/prisma.service';
import { PipeSpecHistoryService } from '../src/pipes/history/pipe-spec-history.service';
import { validCreateBody, validUpdateBody } from './fixtures/pipe-bodies';
import { bearer, createTenant } from './support/fixtures';
import { canaryOf, startUpstreamWorld, UpstreamWorld } from './support/upstreams';

const KINDS = ['kafka', 'objectStorage', 'kinesis', 'postgres'] as const;

describe('pipes facade and create-spec history (e2e)', () => {
  let world: UpstreamWorld;
  let canary: string;
  const path = (suffix = '') =>
    `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes${suffix}`;
  const operator = () => bearer(world.tenant.keys.operator);
  const auditor = () => bearer(world.tenant.keys.auditor);

  beforeAll(async () => {
    world = await startUpstreamWorld();
    canary = canaryOf(world);
  });
  afterAll(async () => {
    await world.close();
  });
  beforeEach(() => {
    world.pipes.faults.clear();
    world.pipes.clearRequests();
  });

  /** A create body whose every secret carries the canary. */
  function secretBody(kind: (typeof KINDS)[number]): Record<string, any> {
    return validCreateBody(kind, { secret: `${canary}-secret` }) as Record<string, any>;
  }

  describe.each(KINDS)('%s source', (kind) => {
    it('creates, updates and reads settings with the right key pair, returning no secret', async () => {
      const body = secretBody(kind);
      const created = await world.gateway.http
        .post(path())
        .set(operator())
        .set('X-Request-Id', `create-${kind}`)
        .send(body)
        .expect(200);
      expect(created.body).toMatchObject({
        status: 200,
        requestId: expect.any(String),
        result: { id: expect.any(String), name: body.name },
      });
      expect(JSON.stringify(created.body)).not.toContain(canary);

      const [sent] = world.pipes.requests();
      expect(sent.method).toBe('POST');
      expect(sent.headers.authorization).toBe(
        `Basic ${Buffer.from(`${world.pipesKey.keyId}:${world.pipesKey.keySecret}`).toString('base64')}`,
      );
      expect(sent.headers['x-request-id']).toBe(`create-${kind}`);
      expect(sent.body).toEqual(body);

      const pipeId = created.body.result.id as string;
      if (kind === 'postgres') world.pipes.setPipeState(pipeId, 'Paused');
      const update = validUpdateBody(kind);
      const updated = await world.gateway.http
        .patch(path(`/${pipeId}`))
        .set(operator())
        .send(update)
        .expect(200);
      expect(updated.body.result.id).toBe(pipeId);
      expect(JSON.stringify(updated.body)).not.toContain(canary);
      expect(world.pipes.requests()[1]).toMatchObject({ method: 'PATCH', body: update });

      const settings = await world.gateway.http
        .get(path(`/${pipeId}/settings`))
        .set(bearer(world.tenant.keys.viewer))
        .expect(200);
      expect(settings.body).toMatchObject({
        status: 200,
        result: update.settings ?? body.settings ?? expect.any(Object),
      });
    });
  });

  it('scrubs secrets the upstream echoes back, inside connection strings and URLs too', async () => {
    world.pipes.faults.add({ kind: 'echoSecrets' });
    for (const kind of KINDS) {
      const body = secretBody(kind);
      if (kind === 'objectStorage') {
        body.source.objectStorage.connectionString = `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${canary}key;EndpointSuffix=core.windows.net`;
        body.source.objectStorage.url = `https://user:${canary}url@bucket.example.com/data/*.json`;
      }
      const response = await world.gateway.http.post(path()).set(operator()).send(body).expect(200);
      expect(JSON.stringify(response.body)).not.toContain(canary);
      expect(JSON.stringify(response.body)).toContain('[redacted]');
    }
    expect(JSON.stringify(world.pipes.requests().map((r) => r.body))).toContain(canary);
  });

  describe('rejections before any upstream call', () => {
    const cases: [string, () => Record<string, any>, string[]][] = [
      ['an unknown field', () => ({ ...validCreateBody('kafka'), surprise: 1 }), ['surprise']],
      ['no source kind', () => ({ ...validCreateBody('kafka'), source: {} }), ['source']],
      [
        'two source kinds',
        () => ({
          ...validCreateBody('kafka'),
          source: { ...validCreateBody('kafka').source, ...validCreateBody('kinesis').source },
        }),
        ['source'],
      ],
      [
        'a kafka offset timestamp with seconds',
        () => {
          const body = validCreateBody('kafka') as Record<string, any>;
          body.source.kafka.offset = { strategy: 'from_timestamp', timestamp: '2025-01-31T10:15:42Z' };
          return body;
        },
        ['source.kafka.offset.timestamp'],
      ],
      [
        'a string for an integer',
        () => ({ ...validCreateBody('kafka'), scaling: { replicas: '2' } }),
        ['scaling.replicas'],
      ],
    ];
    it.each(cases)('create with %s answers 400 naming the path', async (_name, body, paths) => {
      const response = await world.gateway.http.post(path()).set(operator()).send(body()).expect(400);
      expect(response.body.errors.map((e: { path: string }) => e.path)).toEqual(
        expect.arrayContaining(paths),
      );
      expect(world.pipes.requests()).toHaveLength(0);
    });

    it.each([
      [{ source: { kafka: { surprise: 'b:9092' } } }, 'source.kafka.surprise'],
      [{ scaling: { replicas: 2 } }, 'scaling'],
      [{ destination: { table: 't' } }, 'destination.table'],
      [{ source: { bigquery: { tableMappings: [] } } }, 'source.bigquery'],
    ])('update with %j answers 400 naming %s', async (body, field) => {
      const response = await world.gateway.http
        .patch(path(`/${randomUUID()}`))
        .set(operator())
        .send(body)
        .expect(400);
      expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(field);
      expect(world.pipes.requests()).toHaveLength(0);
    });

    it('answers 400 for path ids that are not UUIDs', async () => {
      await world.gateway.http
        .post(`/v1/organizations/nope/services/${world.serviceId}/pipes`)
        .set(operator())
        .send(validCreateBody('kafka'))
        .expect(400);
      await world.gateway.http
        .get(path('/..%2F..%2Fadmin/settings'))
        .set(operator())
        .expect((r) => expect([400, 404]).toContain(r.status));
      const named = await world.gateway.http.get(path('/not-a-uuid/settings')).set(operator()).expect(400);
      expect(named.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(named.body.errors).toEqual([{ path: 'pipeId', message: 'must be a UUID' }]);
      expect(world.pipes.requests()).toHaveLength(0);
    });
  });

  it('answers 422 when the tenant has no credential for the organization', async () => {
    const response = await world.gateway.http
      .post(`/v1/organizations/${randomUUID()}/services/${world.serviceId}/pipes`)
      .set(operator())
      .send(validCreateBody('kafka'))
      .expect(422);
    expect(response.body.type).toMatch(/pipes-credential-missing$/);
  });

  it('says clearly when the target service is idle (upstream 424)', async () => {
    world.pipes.markServiceIdle(world.serviceId);
    try {
      const response = await world.gateway.http
        .post(path())
        .set(operator())
        .send(validCreateBody('kafka'))
        .expect(424);
      expect(response.body.type).toMatch(/upstream-service-idle$/);
      expect(response.body.detail).toMatch(/idle/);
    } finally {
      world.pipes.wakeService(world.serviceId);
    }
  });

  it('passes upstream 404 through with the upstream body', async () => {
    const response = await world.gateway.http
      .get(path(`/${randomUUID()}/settings`))
      .set(operator())
      .expect(404);
    expect(response.body.upstream).toMatchObject({ status: 404, requestId: expect.any(String) });
  });

  it("puts the pipes API's reason for a refusal in detail, keeping its body", async () => {
    const created = await world.gateway.http
      .post(path())
      .set(operator())
      .send(validCreateBody('kafka'))
      .expect(200);
    const pipeId = created.body.result.id as string;
    world.pipes.setPipeState(pipeId, 'Stopping');
    const response = await world.gateway.http
      .patch(path(`/${pipeId}/state`))
      .set(operator())
      .send({ command: 'start' })
      .expect(409);
    expect(response.body).toMatchObject({
      type: expect.stringMatching(/upstream-rejected-request$/),
      detail: 'The pipes API refused: Pipe is Stopping: only a stopped pipe can be started',
      upstream: {
        status: 409,
        body: { status: 409, error: 'Pipe is Stopping: only a stopped pipe can be started' },
      },
    });
  });

  it('quotes the reason scrubbed of secrets, and says to see the body when there is none', async () => {
    world.pipes.faults.add({
      kind: 'status',
      status: 400,
      times: 1,
      body: {
        status: 400,
        error: `cannot reach postgres://svc:${canary}@db:5432/x`,
        requestId: randomUUID(),
      },
    });
    const scrubbed = await world.gateway.http.post(path()).set(operator()).send(validCreateBody('kafka'));
    expect(scrubbed.status).toBe(400);
    expect(scrubbed.body.detail).toMatch(/^The pipes API refused: cannot reach postgres:\/\/svc:/);
    expect(scrubbed.body.detail).not.toContain(canary);
    expect(scrubbed.body.detail).toBe(`The pipes API refused: ${scrubbed.body.upstream.body.error}`);

    world.pipes.faults.add({ kind: 'status', status: 409, times: 1, body: { status: 409 } });
    const bare = await world.gateway.http.post(path()).set(operator()).send(validCreateBody('kafka'));
    expect(bare.status).toBe(409);
    expect(bare.body.detail).toBe('The pipes API answered 409; see upstream.body.');
  });

  describe('history', () => {
    it('records each create: redacted spec, outcome, pipe id, upstream request id, actor and on-behalf-of', async () => {
      const body = secretBody('kafka');
      const created = await world.gateway.http
        .post(path())
        .set(operator())
        .set('X-On-Behalf-Of', 'alice@example.com')
        .set('X-Request-Id', 'history-check-1')
        .send(body)
        .expect(200);
      const list = await world.gateway.http
        .get('/v1/history/pipe-specs?limit=200')
        .set(auditor())
        .expect(200);
      const entry = list.body.items.find(
        (item: { requestId: string }) => item.requestId === 'history-check-1',
      );
      expect(entry).toMatchObject({
        outcome: 'succeeded',
        pipeId: created.body.result.id,
        upstreamRequestId: created.body.requestId,
        upstreamStatus: 200,
        actor: `key:${world.tenant.keyIds.operator}`,
        onBehalfOf: 'alice@example.com',
        organizationId: world.organizationId,
        serviceId: world.serviceId,
        specHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(entry.spec.source.kafka.credentials).toEqual({ username: '[redacted]', password: '[redacted]' });
      expect(entry.spec.name).toBe(body.name);
      const one = await world.gateway.http
        .get(`/v1/history/pipe-specs/${entry.id}`)
        .set(auditor())
        .expect(200);
      expect(one.body.id).toBe(entry.id);
      expect(JSON.stringify(list.body)).not.toContain(canary);
    });

    it('records failures with the upstream status and the redacted error', async () => {
      world.pipes.faults.add({
        kind: 'status',
        status: 409,
        times: 1,
        body: {
          status: 409,
          error: `cannot reach postgres://svc:${canary}@db:5432/x`,
          requestId: randomUUID(),
        },
      });
      await world.gateway.http
        .post(path())
        .set(operator())
        .set('X-Request-Id', 'history-fail-1')
        .send(secretBody('kinesis'))
        .expect(409);
      const list = await world.gateway.http
        .get('/v1/history/pipe-specs?outcome=failed&limit=200')
        .set(auditor())
        .expect(200);
      const entry = list.body.items.find(
        (item: { requestId: string }) => item.requestId === 'history-fail-1',
      );
      expect(entry).toMatchObject({ outcome: 'failed', upstreamStatus: 409, error: { status: 409 } });
      expect(list.body.items.every((item: { outcome: string }) => item.outcome === 'failed')).toBe(true);
    });

    it('filters by organization, service, actor and time, and pages without gaps', async () => {
      for (let i = 0; i < 3; i++) {
        await world.gateway.http
          .post(path())
          .set(operator())
          .set('X-On-Behalf-Of', 'bob')
          .send(validCreateBody('kafka'))
          .expect(200);
      }
      const bob = await world.gateway.http.get('/v1/history/pipe-specs?actor=bob').set(auditor()).expect(200);
      expect(bob.body.items).toHaveLength(3);
      const byService = await world.gateway.http
        .get(`/v1/history/pipe-specs?serviceId=${world.serviceId}&organizationId=${world.organizationId}`)
        .set(auditor())
        .expect(200);
      expect(byService.body.items.length).toBeGreaterThanOrEqual(3);
      const none = await world.gateway.http
        .get(`/v1/history/pipe-specs?serviceId=${randomUUID()}`)
        .set(auditor())
        .expect(200);
      expect(none.body.items).toHaveLength(0);
      const future = await world.gateway.http
        .get(`/v1/history/pipe-specs?from=${new Date(Date.now() + 60_000).toISOString()}`)
        .set(auditor())
        .expect(200);
      expect(future.body.items).toHaveLength(0);

      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await world.gateway.http
          .get(`/v1/history/pipe-specs?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
          .set(auditor())
          .expect(200);
        seen.push(...page.body.items.map((item: { id: string }) => item.id));
        cursor = page.body.nextCursor;
      } while (cursor);
      const all = await world.gateway.http.get('/v1/history/pipe-specs?limit=200').set(auditor()).expect(200);
      expect(seen).toEqual(all.body.items.map((item: { id: string }) => item.id));

      await world.gateway.http.get('/v1/history/pipe-specs?outcome=maybe').set(auditor()).expect(400);
      await world.gateway.http.get('/v1/history/pipe-specs?from=yesterday').set(auditor()).expect(400);
    });

    it('is for auditors of the same tenant only', async () => {
      for (const role of ['admin', 'operator', 'viewer'] as const) {
        await world.gateway.http
          .get('/v1/history/pipe-specs')
          .set(bearer(world.tenant.keys[role]))
          .expect(403);
      }
      const other = await createTenant(world.gateway);
      const theirs = await world.gateway.http
        .get('/v1/history/pipe-specs')
        .set(bearer(other.keys.auditor))
        .expect(200);
      expect(theirs.body.items).toHaveLength(0);
      const mine = await world.gateway.http.get('/v1/history/pipe-specs?limit=1').set(auditor()).expect(200);
      await world.gateway.http
        .get(`/v1/history/pipe-specs/${mine.body.items[0].id}`)
        .set(bearer(other.keys.auditor))
        .expect(404);
    });

    it('marks records left pending by an interrupted process as unknown, visibly', async () => {
      const prisma = world.gateway.app.get(PrismaService);
      const id = randomUUID();
      await prisma.pipeSpecRecord.create({
        data: {
          id,
          tenantId: world.tenant.id,
          actor: 'key:crashed',
          organizationId: world.organizationId,
          serviceId: world.serviceId,
          spec: {},
          specHash: 'x',
          requestId: 'crashed-request',
          createdAt: new Date(Date.now() - 10 * 60_000),
        },
      });
      await world.gateway.app.get(PipeSpecHistoryService).markInterrupted();
      const entry = await world.gateway.http.get(`/v1/history/pipe-specs/${id}`).set(auditor()).expect(200);
      expect(entry.body.outcome).toBe('unknown');
    });
  });

  describe('Idempotency-Key', () => {
    it('answers a repeat with the first result and no second upstream call', async () => {
      const key = randomUUID();
      const body = validCreateBody('kinesis');
      const first = await world.gateway.http
        .post(path())
        .set(operator())
        .set('Idempotency-Key', key)
        .send(body)
        .expect(200);
      const again = await world.gateway.http
        .post(path())
        .set(operator())
        .set('Idempotency-Key', key)
        .send(body)
        .expect(200);
      expect(again.body).toEqual(first.body);
      expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(again.headers['content-type']).toBe(first.headers['content-type']);
      expect(world.pipes.requests().filter((r) => r.method === 'POST')).toHaveLength(1);
    });

    it('refuses the same key with a different spec (422)', async () => {
      const key = randomUUID();
      await world.gateway.http
        .post(path())
        .set(operator())
        .set('Idempotency-Key', key)
        .send(validCreateBody('kinesis'))
        .expect(200);
      const response = await world.gateway.http
        .post(path())
        .set(operator())
        .set('Idempotency-Key', key)
        .send({ ...validCreateBody('kinesis'), name: 'something else' })
        .expect(422);
      expect(response.body.type).toMatch(/idempotency-key-reused$/);
    });

    it('refuses the same key with only an inline secret changed (422): the secrets count', async () => {
      const key = randomUUID();
      await world.gateway.http
        .post(path())
        .set(operator())
        .set('Idempotency-Key', key)
        .send(validCreateBody('kafka', { secret: `${canary}-first` }))
        .expect(200);
      const response = await world.gateway.http
        .post(path())
        .set(operator())
        .set('Idempotency-Key', key)
        .send(validCreateBody('kafka', { secret: `${canary}-second` }))
        .expect(422);
      expect(response.body.type).toMatch(/idempotency-key-reused$/);
      expect(response.text).not.toContain(canary);
      expect(world.pipes.requests().filter((r) => r.method === 'POST')).toHaveLength(1);
    });

    it('takes a key again once its first use is over 24 hours old: a new create, replayed from then on', async () => {
      const key = randomUUID();
      const send = (name: string) =>
        world.gateway.http
          .post(path())
          .set(operator())
          .set('Idempotency-Key', key)
          .send({ ...validCreateBody('kinesis'), name });
      const first = await send('first-use').expect(200);
      await world.gateway.app.get(PrismaService).idempotentRequest.updateMany({
        where: { key },
        data: { createdAt: new Date(Date.now() - 25 * 3_600_000) },
      });
      const second = await send('second-use').expect(200);
      expect(second.body.result.id).not.toBe(first.body.result.id);
      expect(second.body.result.name).toBe('second-use');
      expect((await send('second-use').expect(200)).body).toEqual(second.body);
      await send('first-use').expect(422);
    });

    it("keeps each tenant's keys apart: one key and one body from two tenants create two pipes", async () => {
      const other = await createTenant(world.gateway);
      await world.gateway.http
        .post('/v1/credentials')
        .set(bearer(other.keys.admin))
        .send({ kind: 'pipes', name: 'pipes', organizationId: world.organizationId, ...world.pipesKey })
        .expect(201);
      const key = randomUUID();
      const body = validCreateBody('kinesis');
      const ours = await world.gateway.http
        .post(path())
        .set(operator())
        .set('Idempotency-Key', key)
        .send(body)
        .expect(200);
      const theirs = await world.gateway.http
        .post(path())
        .set(bearer(other.keys.operator))
        .set('Idempotency-Key', key)
        .send(body)
        .expect(200);
      expect(theirs.body.result.id).not.toBe(ours.body.result.id);
      expect(world.pipes.requests().filter((r) => r.method === 'POST')).toHaveLength(2);
    });

    it('lets one of simultaneous requests with the same key through and tells the others to retry', async () => {
      const key = randomUUID();
      const body = validCreateBody('kinesis');
      const send = () =>
        world.gateway.http.post(path()).set(operator()).set('Idempotency-Key', key).send(body);
      const creates = () => world.pipes.requests().filter((r) => r.method === 'POST').length;
      const before = creates();
      const answers = await Promise.all(Array.from({ length: 8 }, send));
      expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
      for (const answer of answers.filter((each) => each.status !== 200)) {
        expect({ status: answer.status, type: answer.body.type }).toEqual({
          status: 409,
          type: expect.stringMatching(/idempotent-request-in-progress$/),
        });
      }
      expect(creates() - before).toBe(1);
    });

    it('rejects a malformed key', async () => {
      await world.gateway.http
        .post(path())
        .set(operator())
        .set('Idempotency-Key', 'has space')
        .send(validCreateBody('kafka'))
        .expect(400);
    });
  });

  it('marks a credential the upstream refuses as rejected and answers 502', async () => {
    const organizationId = randomUUID();
    const created = await world.gateway.http
      .post('/v1/credentials')
      .set(bearer(world.tenant.keys.admin))
      .send({
        kind: 'pipes',
        name: 'wrong',
        organizationId,
        keyId: world.pipesKey.keyId,
        keySecret: 'not-the-secret',
      })
      .expect(201);
    const response = await world.gateway.http
      .get(`/v1/organizations/${organizationId}/services/${world.serviceId}/pipes/${randomUUID()}/settings`)
      .set(operator())
      .expect(502);
    expect(response.body.type).toMatch(/upstream-credential-rejected$/);
    // Names the credential to rotate as the credentials list does, and no part of its secret.
    expect(response.body.detail).toBe(
      `The pipes API answered 401 to the stored credential "wrong" (${created.body.id}); it is marked rejected until an admin rotates it.`,
    );
    expect(response.text).not.toContain('not-the-secret');
    const credential = await world.gateway.http
      .get(`/v1/credentials/${created.body.id}`)
      .set(bearer(world.tenant.keys.admin))
      .expect(200);
    expect(credential.body).toMatchObject({ rejectedStatus: 401, rejectedAt: expect.any(String) });
  });

  it('keeps every secret out of the logs and the audit log', async () => {
    const prisma = world.gateway.app.get(PrismaService);
    expect(world.gateway.logs.text()).not.toContain(canary);
    const events = await prisma.auditEvent.findMany({ where: { tenantId: world.tenant.id } });
    expect(JSON.stringify(events)).not.toContain(canary);
    const records = await prisma.pipeSpecRecord.findMany({ where: { tenantId: world.tenant.id } });
    expect(JSON.stringify(records)).not.toContain(canary);
  });
});
