/**
 * Actions whose effect happens upstream (pipe create and update, dashboard replace and restore)
 * are audited around the call: `pending` before it, the outcome after it. These tests break the
 * audit store on purpose, with triggers scoped to one tenant (on Postgres other suites share it).
 */
import { randomUUID } from 'node:crypto';
import { canonicalJson } from '../src/common/canonical-json';
import { CryptoService } from '../src/crypto/crypto.service';
import { validDashboardBody } from './fixtures/dashboard-bodies';
import { PrismaService } from '../src/database/prisma.service';
import { validCreateBody, validUpdateBody } from './fixtures/pipe-bodies';
import { PipeSpecHistoryService } from '../src/pipes/history/pipe-spec-history.service';
import { bearer } from './support/fixtures';
import { startUpstreamWorld, type UpstreamWorld } from './support/upstreams';

describe('upstream actions and their audit events (e2e)', () => {
  let world: UpstreamWorld;
  let prisma: PrismaService;
  let pipes: string;

  beforeAll(async () => {
    world = await startUpstreamWorld();
    prisma = world.gateway.app.get(PrismaService);
    pipes = `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes`;
  });
  afterAll(() => world?.close());

  const operator = () => bearer(world.tenant.keys.operator);
  const auditor = () => bearer(world.tenant.keys.auditor);

  /**
   * Makes the audit store refuse this tenant's events for which `condition` (SQL over NEW) holds,
   * while `work` runs; `failures` counts refused attempts (a sequence is not rolled back with them).
   * `failFirst` refuses only that many attempts, then lets events through.
   */
  async function refusingEvents<T>(
    condition: string,
    work: (failures: () => Promise<number>) => Promise<T>,
    failFirst = Number.MAX_SAFE_INTEGER,
  ): Promise<T> {
    const name = `upstream_action_refuse_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await prisma.$executeRawUnsafe(`CREATE SEQUENCE ${name}_attempts`);
    await prisma.$executeRawUnsafe(`
      CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('${name}_attempts') <= ${failFirst} THEN
          RAISE EXCEPTION 'audit store unavailable' USING ERRCODE = '57P03';
        END IF;
        RETURN NEW;
      END $$`);
    await prisma.$executeRawUnsafe(`
      CREATE TRIGGER ${name} BEFORE INSERT ON audit_events FOR EACH ROW
      WHEN (NEW.tenant_id = '${world.tenant.id}'::uuid AND ${condition})
      EXECUTE FUNCTION ${name}()`);
    const failures = async () => {
      const [row] = await prisma.$queryRawUnsafe<{ n: number }[]>(
        `SELECT CASE WHEN is_called THEN last_value ELSE 0 END::int AS n FROM ${name}_attempts`,
      );
      return Math.min(row.n, failFirst);
    };
    try {
      return await work(failures);
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER ${name} ON audit_events`);
      await prisma.$executeRawUnsafe(`DROP FUNCTION ${name}()`);
      await prisma.$executeRawUnsafe(`DROP SEQUENCE ${name}_attempts`);
    }
  }

  async function verified(): Promise<void> {
    const verify = await world.gateway.http.get('/v1/audit/verify').set(auditor()).expect(200);
    expect(verify.body.ok).toBe(true);
  }

  describe('when the pending event cannot be written, nothing reaches the upstream', () => {
    const refused = async (request: () => PromiseLike<{ status: number }>, method: string) => {
      const calls = () =>
        [...world.pipes.requests(), ...world.dashboards.requests()].filter((r) => r.method === method);
      const before = calls().length;
      const response = await refusingEvents("NEW.outcome = 'pending'", async () => request());
      expect(response.status).toBe(503);
      expect(calls()).toHaveLength(before);
    };

    it('pipe create: no pipe, no history record', async () => {
      const name = `never-${randomUUID().slice(0, 8)}`;
      const historyBefore = await prisma.pipeSpecRecord.count({ where: { tenantId: world.tenant.id } });
      await refused(
        () =>
          world.gateway.http
            .post(pipes)
            .set(operator())
            .send({ ...validCreateBody('kafka'), name }),
        'POST',
      );
      expect(world.pipes.storedPipes().some((pipe) => pipe.name === name)).toBe(false);
      expect(await prisma.pipeSpecRecord.count({ where: { tenantId: world.tenant.id } })).toBe(historyBefore);
    });

    it('pipe update: the pipe unchanged', async () => {
      const created = await world.gateway.http
        .post(pipes)
        .set(operator())
        .send(validCreateBody('kafka'))
        .expect(200);
      const pipeId = created.body.result.id as string;
      const before = world.pipes.storedPipe(pipeId);
      await refused(
        () => world.gateway.http.patch(`${pipes}/${pipeId}`).set(operator()).send(validUpdateBody('kafka')),
        'PATCH',
      );
      expect(world.pipes.storedPipe(pipeId)).toEqual(before);
    });

    it('dashboard replace and restore: the dashboard unchanged, no version kept', async () => {
      const dashboard = world.dashboards.seedDashboard({ name: 'kept as it is' });
      const path = `/v1/dashboards/${dashboard.id}`;
      await world.gateway.http.put(path).set(operator()).send(validDashboardBody()).expect(200);
      const before = world.dashboards.storedDashboard(dashboard.id);
      const versions = () => prisma.dashboardVersion.count({ where: { dashboardId: dashboard.id } });
      expect(await versions()).toBe(1);

      await refused(
        () => world.gateway.http.put(path).set(operator()).send({ name: 'never', tiles: [], tags: [] }),
        'PUT',
      );
      await refused(() => world.gateway.http.post(`${path}/versions/1/restore`).set(operator()), 'PUT');
      expect(world.dashboards.storedDashboard(dashboard.id)).toEqual(before);
      expect(await versions()).toBe(1);
      await verified();
    });
  });

  describe('when the outcome event cannot be written after the upstream accepted', () => {
    it('retries it, and records it once the store takes it again', async () => {
      const name = `retried-${randomUUID().slice(0, 8)}`;
      const response = await refusingEvents(
        "NEW.outcome <> 'pending'",
        async (failures) => {
          const answer = await world.gateway.http
            .post(pipes)
            .set(operator())
            .send({ ...validCreateBody('kafka'), name });
          expect(await failures()).toBe(2);
          return answer;
        },
        2,
      );
      expect(response.status).toBe(200);
      const history = await prisma.pipeSpecRecord.findFirstOrThrow({
        where: { requestId: response.headers['x-request-id'] },
      });
      expect(history).toMatchObject({ outcome: 'succeeded', pipeId: response.body.result.id });
      const events = await world.gateway.http
        .get(`/v1/audit?target=pipe-spec:${history.id}`)
        .set(auditor())
        .expect(200);
      expect(events.body.items.map((event: { outcome: string }) => event.outcome)).toEqual([
        'succeeded',
        'pending',
      ]);
      await verified();
    });

    it('answers with what the upstream did when every attempt fails, and says so in the log', async () => {
      const name = `unrecorded-${randomUUID().slice(0, 8)}`;
      const response = await refusingEvents("NEW.outcome <> 'pending'", async (failures) => {
        const answer = await world.gateway.http
          .post(pipes)
          .set(operator())
          .set('X-Request-Id', `unrecorded-${name}`)
          .send({ ...validCreateBody('kafka'), name });
        expect(await failures()).toBe(3);
        return answer;
      });
      // The pipe exists upstream: the caller is told so, not handed a 5xx that suggests nothing happened.
      expect(response.status).toBe(200);
      expect(response.body.result).toMatchObject({ name });
      expect(world.pipes.storedPipe(response.body.result.id as string)).toBeDefined();
      const logged = world.gateway.logs
        .entries()
        .find((entry) => entry.requestId === `unrecorded-${name}` && entry.level === 50);
      expect(logged).toMatchObject({ action: 'pipe.create', outcome: 'succeeded', httpStatus: 200 });
      expect(String(logged?.msg)).toMatch(/^audit outcome not recorded/);

      // The trail stays visible: the pending event, a pending record that turns unknown once the
      // request's deadline has passed.
      const history = await prisma.pipeSpecRecord.findFirstOrThrow({
        where: { requestId: `unrecorded-${name}` },
      });
      expect(history.outcome).toBe('pending');
      await verified();
    });

    it('answers with the upstream refusal when the failed outcome cannot be written either', async () => {
      world.pipes.faults.add({ kind: 'status', status: 400, method: 'POST', times: 1 });
      const response = await refusingEvents("NEW.outcome <> 'pending'", async () =>
        world.gateway.http.post(pipes).set(operator()).send(validCreateBody('kafka')),
      );
      expect(response.status).toBe(400);
      expect(response.body.upstream).toMatchObject({ status: 400 });
    });
  });

  describe('a create interrupted before its outcome was recorded', () => {
    async function interruptedCreate(ageMs: number) {
      const key = randomUUID();
      const body = validCreateBody('kafka');
      const history = world.gateway.app.get(PipeSpecHistoryService);
      // As the gateway receives it: parsed JSON, whatever realm the fixture's objects come from.
      const recorded = history.redact(JSON.parse(JSON.stringify(body)));
      const id = randomUUID();
      const createdAt = new Date(Date.now() - ageMs);
      await prisma.pipeSpecRecord.create({
        data: {
          id,
          tenantId: world.tenant.id,
          actor: 'key:interrupted',
          organizationId: world.organizationId,
          serviceId: world.serviceId,
          spec: JSON.parse(recorded.text) as object,
          specHash: recorded.specHash,
          requestId: `interrupted-${id}`,
          createdAt,
        },
      });
      // The key as the create recorded it, with the fingerprint of this very request.
      const request = canonicalJson({
        organizationId: world.organizationId,
        serviceId: world.serviceId,
        spec: JSON.parse(JSON.stringify(body)) as unknown,
      });
      await prisma.idempotentRequest.create({
        data: {
          tenantId: world.tenant.id,
          operation: 'pipe.create',
          key,
          fingerprint: world.gateway.app.get(CryptoService).fingerprint(request),
          recordId: id,
          createdAt,
        },
      });
      const replay = () =>
        world.gateway.http.post(pipes).set(operator()).set('Idempotency-Key', key).send(body);
      return { id, replay };
    }

    it('is in progress within the deadline of its request', async () => {
      const { replay } = await interruptedCreate(1_000);
      const response = await replay().expect(409);
      expect(response.body.type).toMatch(/idempotent-request-in-progress$/);
    });

    it('is reported as outcome unknown past that deadline, naming what to check, without a restart', async () => {
      // The world's upstream timeout is 2 s; the margin for the rest of the request one minute.
      const posts = () => world.pipes.requests().filter((r) => r.method === 'POST').length;
      const before = posts();
      const { id, replay } = await interruptedCreate(2_000 + 61_000);
      const response = await replay().expect(409);
      expect(response.body.type).toMatch(/idempotent-outcome-unknown$/);
      expect(response.body.detail).toContain(`history entry ${id}`);
      expect(response.body.detail).toMatch(/may or may not exist/);
      expect(posts()).toBe(before);

      // The running gateway marks it too (it does so every minute), visibly in history and audit.
      await world.gateway.app.get(PipeSpecHistoryService).markInterrupted();
      const entry = await world.gateway.http.get(`/v1/history/pipe-specs/${id}`).set(auditor()).expect(200);
      expect(entry.body.outcome).toBe('unknown');
      const events = await world.gateway.http
        .get(`/v1/audit?target=pipe-spec:${id}`)
        .set(auditor())
        .expect(200);
      expect(events.body.items).toEqual([
        expect.objectContaining({
          actor: 'gateway',
          outcome: 'failed',
          details: expect.objectContaining({ reconciled: 'unknown' }),
        }),
      ]);
      // Marking again (another replica, the next minute) adds nothing.
      await world.gateway.app.get(PipeSpecHistoryService).markInterrupted();
      const again = await world.gateway.http
        .get(`/v1/audit?target=pipe-spec:${id}`)
        .set(auditor())
        .expect(200);
      expect(again.body.items).toHaveLength(1);
    });
  });
});
