/**
 * The team vault holds source secrets: pipe specs reference them, the upstream gets the values, and
 * nothing the gateway keeps or answers holds one; recorded specs can be submitted again, uses are
 * listed, and a rotation can be propagated to the pipes that use the secret.
 */
import { randomUUID } from 'node:crypto';
import { PrismaService } from '../src/database/prisma.service';
import { validCreateBody } from './fixtures/pipe-bodies';
import { bearer, createTenant } from './support/fixtures';
import { canaryOf, startUpstreamWorld, UpstreamWorld } from './support/upstreams';

describe('vault secrets and references in pipe specs (e2e)', () => {
  let world: UpstreamWorld;
  let canary: string;
  let kafkaSecret: { id: string };
  let blobSecret: { id: string };
  const pipes = (suffix = '') =>
    `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes${suffix}`;
  const as = (role: 'admin' | 'operator' | 'viewer' | 'auditor') => bearer(world.tenant.keys[role]);

  /** A kafka create body whose credentials are a reference. */
  const kafkaWithReference = (reference: string, name = `kafka ${randomUUID().slice(0, 8)}`) => {
    const body = validCreateBody('kafka');
    body.name = name;
    body.source.kafka.credentials = { $secret: reference };
    body.source.kafka.schemaRegistry.credentials = { $secret: reference };
    return body;
  };

  async function storeSecret(name: string, value: unknown): Promise<any> {
    const response = await world.gateway.http
      .post('/v1/credentials')
      .set(as('admin'))
      .send({ kind: 'secret', name, value })
      .expect(201);
    return response.body;
  }

  async function createPipe(body: object): Promise<string> {
    const response = await world.gateway.http.post(pipes()).set(as('operator')).send(body).expect(200);
    return response.body.result.id as string;
  }

  beforeAll(async () => {
    world = await startUpstreamWorld();
    canary = canaryOf(world);
    kafkaSecret = await storeSecret('kafka-prod', { username: 'orders', password: `${canary}-kafka` });
    blobSecret = await storeSecret(
      'blob-conn',
      `DefaultEndpointsProtocol=https;AccountName=store;AccountKey=${canary}-blob;EndpointSuffix=core.windows.net`,
    );
  });
  afterAll(async () => {
    await world.close();
  });
  beforeEach(() => world.pipes.clearRequests());

  describe('the vault', () => {
    it('answers metadata only: field names of an object, a hint of a long string, never a value', async () => {
      const listed = await world.gateway.http.get('/v1/credentials').set(as('viewer')).expect(200);
      const byName = new Map((listed.body.items as any[]).map((item) => [item.name, item]));
      expect(byName.get('kafka-prod')).toMatchObject({
        kind: 'secret',
        fields: ['username', 'password'],
        hint: '',
      });
      expect(byName.get('blob-conn')).toMatchObject({ kind: 'secret', hint: '.net' });
      expect(byName.get('blob-conn').fields).toBeUndefined();
      expect(listed.text).not.toContain(canary);
    });

    it('keeps names unique per tenant and refuses values of the wrong shape', async () => {
      const duplicate = await world.gateway.http
        .post('/v1/credentials')
        .set(as('admin'))
        .send({ kind: 'secret', name: 'kafka-prod', value: 'x' })
        .expect(409);
      expect(duplicate.body.detail).toContain('kafka-prod');
      for (const value of [5, [], {}, { password: 7 }, { 'bad name': 'x' }, '']) {
        const refused = await world.gateway.http
          .post('/v1/credentials')
          .set(as('admin'))
          .send({ kind: 'secret', name: `s-${randomUUID().slice(0, 6)}`, value })
          .expect(400);
        expect(refused.body.errors.map((error: { path: string }) => error.path)).toEqual(['value']);
      }
      await world.gateway.http
        .post('/v1/credentials')
        .set(as('operator'))
        .send({ kind: 'secret', name: 'by an operator', value: 'x' })
        .expect(403);
    });
  });

  describe('references in a spec', () => {
    it('sends the values upstream and keeps only the references everywhere else', async () => {
      const pipeId = await createPipe(kafkaWithReference('kafka-prod'));
      const stored = world.pipes.storedPipe(pipeId)!.source.kafka as any;
      expect(stored.credentials).toEqual({ username: 'orders', password: `${canary}-kafka` });
      expect(stored.schemaRegistry.credentials).toEqual({ username: 'orders', password: `${canary}-kafka` });

      const history = await world.gateway.http.get('/v1/history/pipe-specs').set(as('auditor')).expect(200);
      const entry = (history.body.items as any[]).find((item) => item.pipeId === pipeId);
      expect(entry.spec.source.kafka.credentials).toEqual({ $secret: 'kafka-prod' });
      expect(entry.spec.source.kafka.schemaRegistry.credentials).toEqual({ $secret: 'kafka-prod' });
    });

    it('takes a reference by id, and in an update', async () => {
      const body = validCreateBody('objectStorage');
      body.source.objectStorage.connectionString = { $secret: blobSecret.id };
      const pipeId = await createPipe(body);
      expect((world.pipes.storedPipe(pipeId)!.source.objectStorage as any).connectionString).toContain(
        `${canary}-blob`,
      );
      await world.gateway.http
        .patch(pipes(`/${pipeId}`))
        .set(as('operator'))
        .send({ source: { objectStorage: { connectionString: { $secret: 'blob-conn' }, path: 'x/*' } } })
        .expect(200);
      expect(world.pipes.requests().at(-1)?.body).toEqual({
        source: {
          objectStorage: { connectionString: expect.stringContaining(`${canary}-blob`), path: 'x/*' },
        },
      });
    });

    it('checks the body with the values in place: a secret of the wrong shape is a 400 naming the path', async () => {
      const response = await world.gateway.http
        .post(pipes())
        .set(as('operator'))
        .send(kafkaWithReference('blob-conn'))
        .expect(400);
      expect(response.body.errors).toEqual(
        expect.arrayContaining([{ path: 'source.kafka.credentials', message: 'must be an object' }]),
      );
      expect(response.text).not.toContain(canary);
      expect(world.pipes.requests()).toHaveLength(0);
    });

    it('answers 422 naming the path of a reference to no secret, and 400 for a malformed one', async () => {
      const unknown = await world.gateway.http
        .post(pipes())
        .set(as('operator'))
        .send(kafkaWithReference('no-such-secret'))
        .expect(422);
      expect(unknown.body.type).toMatch(/secret-reference-unknown$/);
      expect(unknown.body.errors.map((error: { path: string }) => error.path)).toEqual([
        'source.kafka.schemaRegistry.credentials',
        'source.kafka.credentials',
      ]);
      const body = validCreateBody('kafka');
      body.source.kafka.credentials = { $secret: 'kafka-prod', password: 'inline' };
      const malformed = await world.gateway.http.post(pipes()).set(as('operator')).send(body).expect(400);
      expect(malformed.body.errors[0].path).toBe('source.kafka.credentials');
      expect(world.pipes.requests()).toHaveLength(0);
    });

    it('scrubs a referenced value an upstream echoes, even under a plain field name', async () => {
      world.pipes.faults.add({
        kind: 'status',
        status: 400,
        body: { status: 400, error: `SASL login refused for ${canary}-kafka`, requestId: randomUUID() },
      });
      try {
        const response = await world.gateway.http
          .post(pipes())
          .set(as('operator'))
          .send(kafkaWithReference('kafka-prod'))
          .expect(400);
        expect(response.text).not.toContain(canary);
      } finally {
        world.pipes.faults.clear();
      }
    });
  });

  describe('where a reference may stand', () => {
    const MISPLACED = /secret-reference-misplaced$/;
    const NO_PLACE = 'is no place for a secret: a reference may stand only where the pipes service takes one';

    /** What the gateway recorded of the request with `requestId`: history entries and audit events. */
    async function recordsOf(requestId: string): Promise<{ history: number; audit: boolean }> {
      const prisma = world.gateway.app.get(PrismaService);
      const history = await prisma.pipeSpecRecord.count({ where: { requestId } });
      const audit = await world.gateway.http.get('/v1/audit/export').set(as('auditor')).expect(200);
      return { history, audit: audit.text.includes(requestId) };
    }

    it('refuses a reference outside a secret place: 422 naming each path, nothing sent or recorded', async () => {
      const body = validCreateBody('kinesis');
      body.name = { $secret: 'kafka-prod' };
      body.source.kinesis.streamName = { $secret: 'blob-conn' };
      body.destination.table = { $secret: kafkaSecret.id };
      body.fieldMappings[1].sourceField = { $secret: 'kafka-prod' };
      const requestId = `misplaced-${randomUUID()}`;
      const response = await world.gateway.http
        .post(pipes())
        .set(as('operator'))
        .set('X-Request-Id', requestId)
        .send(body)
        .expect(422);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body.type).toMatch(MISPLACED);
      expect(response.body.errors).toEqual([
        { path: 'name', message: NO_PLACE },
        { path: 'source.kinesis.streamName', message: NO_PLACE },
        { path: 'destination.table', message: NO_PLACE },
        { path: 'fieldMappings[1].sourceField', message: NO_PLACE },
      ]);
      expect(response.text).not.toContain(canary);
      expect(world.pipes.requests()).toEqual([]);
      expect(await recordsOf(requestId)).toEqual({ history: 0, audit: false });
    });

    it('refuses a whole URL or broker list, whose user-info alone is secret', async () => {
      const kafka = kafkaWithReference('kafka-prod');
      kafka.source.kafka.brokers = { $secret: 'blob-conn' };
      kafka.source.kafka.schemaRegistry.url = { $secret: 'blob-conn' };
      const refused = await world.gateway.http.post(pipes()).set(as('operator')).send(kafka).expect(422);
      expect(refused.body.type).toMatch(MISPLACED);
      expect(refused.body.errors.map((error: { path: string }) => error.path)).toEqual([
        'source.kafka.brokers',
        'source.kafka.schemaRegistry.url',
      ]);
      const storage = validCreateBody('objectStorage');
      storage.source.objectStorage.url = { $secret: 'blob-conn' };
      storage.source.objectStorage.queueUrl = { $secret: 'blob-conn' };
      const alsoRefused = await world.gateway.http
        .post(pipes())
        .set(as('operator'))
        .send(storage)
        .expect(422);
      expect(alsoRefused.body.errors.map((error: { path: string }) => error.path)).toEqual([
        'source.objectStorage.url',
        'source.objectStorage.queueUrl',
      ]);
      expect(world.pipes.requests()).toEqual([]);
    });

    it('refuses one in an update as well: nothing sent, no pending action left', async () => {
      const pipeId = await createPipe(kafkaWithReference('kafka-prod'));
      world.pipes.clearRequests();
      const requestId = `misplaced-update-${randomUUID()}`;
      const refused = await world.gateway.http
        .patch(pipes(`/${pipeId}`))
        .set(as('operator'))
        .set('X-Request-Id', requestId)
        .send({ name: { $secret: 'kafka-prod' } })
        .expect(422);
      expect(refused.body.type).toMatch(MISPLACED);
      expect(refused.body.errors).toEqual([{ path: 'name', message: NO_PLACE }]);
      expect(world.pipes.requests()).toEqual([]);
      expect(await recordsOf(requestId)).toEqual({ history: 0, audit: false });
      expect(world.pipes.storedPipe(pipeId)!.name).not.toContain(canary);
    });

    it('refuses one in a recorded spec submitted again', async () => {
      const pipeId = await createPipe(kafkaWithReference('kafka-prod'));
      const prisma = world.gateway.app.get(PrismaService);
      const entry = await prisma.pipeSpecRecord.findFirstOrThrow({ where: { pipeId } });
      // A spec recorded with a reference where no secret goes.
      await prisma.pipeSpecRecord.update({
        where: { id: entry.id },
        data: { spec: { ...(entry.spec as object), name: { $secret: 'kafka-prod' } } },
      });
      world.pipes.clearRequests();
      const refused = await world.gateway.http
        .post(`/v1/history/pipe-specs/${entry.id}/resubmit`)
        .set(as('operator'))
        .expect(422);
      expect(refused.body.type).toMatch(MISPLACED);
      expect(refused.body.errors).toEqual([{ path: 'name', message: NO_PLACE }]);
      expect(world.pipes.requests()).toEqual([]);
    });

    it('takes one at any secret place: a credential object, a key, a password inside credentials', async () => {
      const password = await storeSecret('pg-password', `${canary}-postgres`);
      const postgres = validCreateBody('postgres');
      postgres.source.postgres.credentials.password = { $secret: 'pg-password' };
      const pipeId = await createPipe(postgres);
      expect((world.pipes.storedPipe(pipeId)!.source.postgres as any).credentials).toEqual({
        username: postgres.source.postgres.credentials.username,
        password: `${canary}-postgres`,
      });
      const usage = await world.gateway.http
        .get(`/v1/credentials/${password.id}/usage`)
        .set(as('viewer'))
        .expect(200);
      expect(usage.body.items.map((item: { path: string }) => item.path)).toEqual([
        'source.postgres.credentials.password',
      ]);

      await storeSecret('aws-keys', { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: `${canary}-aws` });
      const kinesis = validCreateBody('kinesis');
      kinesis.source.kinesis.accessKey = { $secret: 'aws-keys' };
      const kinesisPipe = await createPipe(kinesis);
      expect((world.pipes.storedPipe(kinesisPipe)!.source.kinesis as any).accessKey.secretKey).toBe(
        `${canary}-aws`,
      );
    });

    it('checks references before the body, and their place before the vault', async () => {
      // A malformed reference is a 400 whatever else is wrong.
      const malformed = kafkaWithReference('no-such-secret');
      malformed.name = { $secret: 'kafka-prod' };
      malformed.source.kafka.credentials = { $secret: '' };
      const first = await world.gateway.http.post(pipes()).set(as('operator')).send(malformed).expect(400);
      expect(first.body.errors.map((error: { path: string }) => error.path)).toEqual([
        'source.kafka.credentials',
      ]);
      // A misplaced reference is refused before any is looked up: the unknown one is not named.
      const misplaced = kafkaWithReference('no-such-secret');
      misplaced.name = { $secret: 'kafka-prod' };
      const second = await world.gateway.http.post(pipes()).set(as('operator')).send(misplaced).expect(422);
      expect(second.body.type).toMatch(MISPLACED);
      expect(second.body.errors.map((error: { path: string }) => error.path)).toEqual(['name']);
      // An unknown reference comes before the body's own errors, which are checked with the values in.
      const unknown = kafkaWithReference('no-such-secret');
      unknown.scaling.replicas = 1000;
      const third = await world.gateway.http.post(pipes()).set(as('operator')).send(unknown).expect(422);
      expect(third.body.type).toMatch(/secret-reference-unknown$/);
      expect(world.pipes.requests()).toEqual([]);
    });
  });

  describe('whose secrets a reference reaches', () => {
    /** A kafka create referencing these two at its credentials is refused: neither names a secret. */
    async function expectNoSecretNamed(credentials: string, registryCredentials: string): Promise<void> {
      const body = kafkaWithReference(credentials);
      body.source.kafka.schemaRegistry.credentials = { $secret: registryCredentials };
      const refused = await world.gateway.http.post(pipes()).set(as('operator')).send(body).expect(422);
      expect(refused.body.type).toMatch(/secret-reference-unknown$/);
      expect(refused.body.errors.map((error: { path: string }) => error.path)).toEqual([
        'source.kafka.schemaRegistry.credentials',
        'source.kafka.credentials',
      ]);
      expect(refused.text).not.toContain(canary);
    }

    it("resolves no other tenant's secret, by name or by id", async () => {
      const other = await createTenant(world.gateway);
      const theirs = await world.gateway.http
        .post('/v1/credentials')
        .set(bearer(other.keys.admin))
        .send({
          kind: 'secret',
          name: 'their-kafka',
          value: { username: 'them', password: `${canary}-theirs` },
        })
        .expect(201);
      await expectNoSecretNamed('their-kafka', theirs.body.id);
      expect(world.pipes.requests()).toEqual([]);
    });

    it('resolves only vault secrets: not a pipes or a dashboards credential, by id or by name', async () => {
      const listed = await world.gateway.http.get('/v1/credentials').set(as('viewer')).expect(200);
      const pipesCredential = (listed.body.items as any[]).find((item) => item.kind === 'pipes');
      for (const [credentials, registry] of [
        [pipesCredential.id, world.dashboardsCredentialId],
        [pipesCredential.name, 'dashboards'],
      ]) {
        await expectNoSecretNamed(credentials, registry);
      }
      expect(world.pipes.requests()).toEqual([]);
    });

    it("shows a secret's usage to its own tenant only", async () => {
      await createPipe(kafkaWithReference('kafka-prod'));
      const own = await world.gateway.http
        .get(`/v1/credentials/${kafkaSecret.id}/usage`)
        .set(as('viewer'))
        .expect(200);
      expect(own.body.items.length).toBeGreaterThan(0);
      const other = await createTenant(world.gateway);
      const refused = await world.gateway.http
        .get(`/v1/credentials/${kafkaSecret.id}/usage`)
        .set(bearer(other.keys.viewer))
        .expect(404);
      expect(refused.body.type).toMatch(/not-found$/);
      expect(refused.text).not.toContain(world.organizationId);
    });
  });

  describe('usage, resubmit and propagation', () => {
    it('lists where a secret is used, and forgets a use an update replaced or a delete ended', async () => {
      const pipeId = await createPipe(kafkaWithReference('kafka-prod'));
      const usage = await world.gateway.http
        .get(`/v1/credentials/${kafkaSecret.id}/usage`)
        .set(as('viewer'))
        .expect(200);
      const mine = (usage.body.items as any[]).filter((item) => item.pipeId === pipeId);
      expect(mine.map((item) => item.path).sort()).toEqual([
        'source.kafka.credentials',
        'source.kafka.schemaRegistry.credentials',
      ]);
      expect(mine[0]).toMatchObject({
        organizationId: world.organizationId,
        serviceId: world.serviceId,
        historyId: expect.any(String),
      });

      await world.gateway.http
        .patch(pipes(`/${pipeId}`))
        .set(as('operator'))
        .send({ source: { kafka: { credentials: { username: 'u', password: 'inline-now' } } } })
        .expect(200);
      const after = await world.gateway.http
        .get(`/v1/credentials/${kafkaSecret.id}/usage`)
        .set(as('viewer'))
        .expect(200);
      expect(
        (after.body.items as any[]).filter((item) => item.pipeId === pipeId).map((item) => item.path),
      ).toEqual(['source.kafka.schemaRegistry.credentials']);
      await world.gateway.http
        .delete(pipes(`/${pipeId}`))
        .set(as('operator'))
        .expect(200);
      const gone = await world.gateway.http
        .get(`/v1/credentials/${kafkaSecret.id}/usage`)
        .set(as('viewer'))
        .expect(200);
      expect((gone.body.items as any[]).filter((item) => item.pipeId === pipeId)).toEqual([]);
    });

    it("resubmits a recorded spec of references with today's values, as a linked history entry", async () => {
      const first = await createPipe(kafkaWithReference('kafka-prod', 'orders-v1'));
      const history = await world.gateway.http.get('/v1/history/pipe-specs').set(as('auditor')).expect(200);
      const entry = (history.body.items as any[]).find((item) => item.pipeId === first);

      await world.gateway.http
        .post(`/v1/history/pipe-specs/${entry.id}/resubmit`)
        .set(as('viewer'))
        .expect(403);
      const again = await world.gateway.http
        .post(`/v1/history/pipe-specs/${entry.id}/resubmit`)
        .set(as('operator'))
        .send({ name: 'orders-v2' })
        .expect(200);
      const second = again.body.result.id as string;
      expect(second).not.toBe(first);
      expect(world.pipes.storedPipe(second)).toMatchObject({ name: 'orders-v2' });
      expect((world.pipes.storedPipe(second)!.source.kafka as any).credentials.password).toBe(
        `${canary}-kafka`,
      );
      const linked = await world.gateway.http.get('/v1/history/pipe-specs').set(as('auditor')).expect(200);
      expect((linked.body.items as any[]).find((item) => item.pipeId === second)).toMatchObject({
        resubmittedFrom: entry.id,
        spec: { name: 'orders-v2', source: { kafka: { credentials: { $secret: 'kafka-prod' } } } },
      });
      // With no body at all, the recorded name is kept.
      const third = await world.gateway.http
        .post(`/v1/history/pipe-specs/${entry.id}/resubmit`)
        .set(as('operator'))
        .expect(200);
      expect(third.body.result.name).toBe('orders-v1');
    });

    it('refuses to resubmit a spec that held inline secrets, listing where', async () => {
      const pipeId = await createPipe(validCreateBody('kafka', { secret: `${canary}-inline` }));
      const history = await world.gateway.http.get('/v1/history/pipe-specs').set(as('auditor')).expect(200);
      const entry = (history.body.items as any[]).find((item) => item.pipeId === pipeId);
      const refused = await world.gateway.http
        .post(`/v1/history/pipe-specs/${entry.id}/resubmit`)
        .set(as('operator'))
        .expect(409);
      expect(refused.body.type).toMatch(/spec-holds-inline-secrets$/);
      expect(refused.body.errors.map((error: { path: string }) => error.path)).toEqual(
        expect.arrayContaining([
          'source.kafka.credentials.password',
          'source.kafka.schemaRegistry.credentials.password',
        ]),
      );
    });

    it('propagates to every pipe it can: one deleted upstream fails alone, and the new value stays', async () => {
      const secret = await storeSecret('rotating', { username: 'svc', password: `${canary}-old` });
      const kept = await createPipe(kafkaWithReference('rotating'));
      const gone = await createPipe(kafkaWithReference('rotating'));
      // Deleted behind the gateway's back, with the upstream key itself.
      const basic = Buffer.from(`${world.pipesKey.keyId}:${world.pipesKey.keySecret}`).toString('base64');
      const deleted = await fetch(`${world.pipes.url}${pipes(`/${gone}`)}`, {
        method: 'DELETE',
        headers: { authorization: `Basic ${basic}` },
      });
      expect(deleted.status).toBe(200);

      const rotated = await world.gateway.http
        .post(`/v1/credentials/${secret.id}/rotate`)
        .query({ propagate: 'true' })
        .set(as('admin'))
        .send({ value: { username: 'svc', password: `${canary}-new` } })
        .expect(200);
      expect(rotated.body).toMatchObject({ id: secret.id, version: 2 });
      const outcomes = new Map(
        (rotated.body.propagation as any[]).map((outcome) => [outcome.pipeId, outcome]),
      );
      expect(outcomes.get(kept)).toMatchObject({
        outcome: 'updated',
        status: 200,
        // A schema registry is set at create only: the pipe keeps the old value there.
        notUpdatable: ['source.kafka.schemaRegistry.credentials'],
      });
      expect(outcomes.get(gone)).toMatchObject({
        outcome: 'failed',
        status: 404,
        problem: { type: expect.any(String) },
      });
      expect((world.pipes.storedPipe(kept)!.source.kafka as any).credentials.password).toBe(`${canary}-new`);
      expect(rotated.text).not.toContain(canary);
    });

    it('updates the pipes that use a rotated secret, audited one by one with the reference only', async () => {
      const secret = await storeSecret('propagated', { username: 'svc', password: `${canary}-v1` });
      const pipeIds = [
        await createPipe(kafkaWithReference('propagated')),
        await createPipe(kafkaWithReference('propagated')),
      ];
      world.pipes.clearRequests();
      const rotated = await world.gateway.http
        .post(`/v1/credentials/${secret.id}/rotate?propagate=true`)
        .set(as('admin'))
        .send({ value: { username: 'svc', password: `${canary}-v2` } })
        .expect(200);
      expect(
        (rotated.body.propagation as any[]).map((outcome) => [outcome.pipeId, outcome.outcome]).sort(),
      ).toEqual(pipeIds.map((id) => [id, 'updated']).sort());
      for (const pipeId of pipeIds) {
        const kafka = world.pipes.storedPipe(pipeId)!.source.kafka as any;
        expect(kafka.credentials.password).toBe(`${canary}-v2`);
      }
      const patches = world.pipes.requests().filter((request) => request.method === 'PATCH');
      expect(patches.map((request) => Object.keys((request.body as any).source.kafka))).toEqual([
        ['credentials'],
        ['credentials'],
      ]);
      const audit = await world.gateway.http
        .get('/v1/audit')
        .query({ action: 'pipe.update', target: `pipe:${pipeIds[0]}` })
        .set(as('auditor'))
        .expect(200);
      expect(audit.body.items[0].details).toMatchObject({
        propagatedFrom: secret.id,
        change: { source: { kafka: { credentials: { $secret: secret.id } } } },
      });
    });

    it('names each pipe in its usage and its propagation outcome, as last created or renamed', async () => {
      const secret = await storeSecret('named-uses', { username: 'svc', password: `${canary}-named` });
      const renamed = await createPipe(kafkaWithReference('named-uses', 'orders first'));
      await world.gateway.http
        .patch(pipes(`/${renamed}`))
        .set(as('operator'))
        .send({ name: 'orders renamed' })
        .expect(200);
      const kept = await createPipe(kafkaWithReference('named-uses', 'billing'));
      const usage = await world.gateway.http
        .get(`/v1/credentials/${secret.id}/usage`)
        .set(as('viewer'))
        .expect(200);
      expect(new Set((usage.body.items as any[]).map((item) => `${item.pipeId} ${item.pipeName}`))).toEqual(
        new Set([`${renamed} orders renamed`, `${kept} billing`]),
      );
      const rotated = await world.gateway.http
        .post(`/v1/credentials/${secret.id}/rotate?propagate=true`)
        .set(as('admin'))
        .send({ value: { username: 'svc', password: `${canary}-named-2` } })
        .expect(200);
      expect(
        (rotated.body.propagation as any[]).map(({ pipeId, pipeName, outcome }) => ({
          pipeId,
          pipeName,
          outcome,
        })),
      ).toEqual([
        { pipeId: renamed, pipeName: 'orders renamed', outcome: 'updated' },
        { pipeId: kept, pipeName: 'billing', outcome: 'updated' },
      ]);
    });

    it('keeps a secret pipes use, naming them, until the deletion is confirmed; the event names them too', async () => {
      const secret = await storeSecret('in-use', { username: 'svc', password: `${canary}-in-use` });
      const first = await createPipe(kafkaWithReference('in-use', 'orders in use'));
      const second = await createPipe(kafkaWithReference('in-use', 'billing in use'));
      for (const query of [{}, { force: 'false' }]) {
        const refused = await world.gateway.http
          .delete(`/v1/credentials/${secret.id}`)
          .query(query)
          .set(as('admin'))
          .expect(409);
        expect(refused.body).toMatchObject({
          type: expect.stringMatching(/secret-in-use$/),
          detail:
            `The secret "in-use" is used by 2 pipes: "orders in use" (${first}), "billing in use" (${second}). ` +
            'They keep its value upstream, but updating or creating one that references it fails once it is ' +
            'deleted. Delete with ?force=true to go ahead.',
          pipes: [first, second].map((pipeId, index) => ({
            pipeId,
            name: ['orders in use', 'billing in use'][index],
            organizationId: world.organizationId,
            serviceId: world.serviceId,
            paths: ['source.kafka.credentials', 'source.kafka.schemaRegistry.credentials'],
          })),
        });
      }
      await world.gateway.http.get(`/v1/credentials/${secret.id}`).set(as('viewer')).expect(200);

      const badFlag = await world.gateway.http
        .delete(`/v1/credentials/${secret.id}`)
        .query({ force: 'yes' })
        .set(as('admin'))
        .expect(400);
      expect(badFlag.body.errors).toEqual([{ path: 'force', message: 'must be true or false' }]);

      await world.gateway.http
        .delete(`/v1/credentials/${secret.id}`)
        .query({ force: 'true' })
        .set(as('admin'))
        .expect(204);
      await world.gateway.http.get(`/v1/credentials/${secret.id}`).set(as('viewer')).expect(404);
      const deleted = await world.gateway.http
        .get('/v1/audit')
        .query({ action: 'credential.delete', target: `credential:${secret.id}` })
        .set(as('auditor'))
        .expect(200);
      expect(deleted.body.items[0].details).toEqual({
        kind: 'secret',
        name: 'in-use',
        usedBy: [first, second],
      });
      // A pipe created with a reference to it afterwards is refused.
      await world.gateway.http
        .post(pipes())
        .set(as('operator'))
        .send(kafkaWithReference('in-use'))
        .expect(422);
    });

    it('deletes a secret no pipe uses at once, as before', async () => {
      const secret = await storeSecret('unused', 'value-unused');
      await world.gateway.http.delete(`/v1/credentials/${secret.id}`).set(as('admin')).expect(204);
      await world.gateway.http.get(`/v1/credentials/${secret.id}`).set(as('viewer')).expect(404);
    });

    it('refuses to propagate a credential that is not a vault secret', async () => {
      const credentials = await world.gateway.http.get('/v1/credentials').set(as('viewer')).expect(200);
      const pipesCredential = (credentials.body.items as any[]).find((item) => item.kind === 'pipes');
      const refused = await world.gateway.http
        .post(`/v1/credentials/${pipesCredential.id}/rotate?propagate=true`)
        .set(as('admin'))
        .send({ keySecret: world.pipesKey.keySecret })
        .expect(400);
      expect(refused.body.errors).toEqual([
        { path: 'propagate', message: 'applies to vault secrets (kind secret) only' },
      ]);
    });
  });

  it('leaves a planted secret nowhere but in the ciphertext', async () => {
    const prisma = world.gateway.app.get(PrismaService);
    const tables = await prisma.$queryRawUnsafe<{ table_name: string }[]>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    );
    for (const { table_name: table } of tables) {
      const rows = await prisma.$queryRawUnsafe<unknown[]>(
        `SELECT to_jsonb(t)::text AS row FROM "${table}" t`,
      );
      expect([table, JSON.stringify(rows).includes(canary)]).toEqual([table, false]);
    }
    const audit = await world.gateway.http.get('/v1/audit/export').set(as('auditor')).expect(200);
    expect(audit.text).not.toContain(canary);
    expect(world.gateway.logs.text()).not.toContain(canary);
  });
});
