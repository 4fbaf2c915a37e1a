/**
 * Managing pipes and dashboards end to end: list, read, delete, start and stop, scale, settings;
 * dashboards listed, created (idempotently) and deleted, with what the gateway keeps of them.
 */
import { randomUUID } from 'node:crypto';
import { PrismaService } from '../src/database/prisma.service';
import { validDashboardBody } from './fixtures/dashboard-bodies';
import { realShapedCreateBodies, validCreateBody } from './fixtures/pipe-bodies';
import { CannedUpstream } from './support/canned-upstream';
import { bearer } from './support/fixtures';
import { canaryOf, startUpstreamWorld, UpstreamWorld } from './support/upstreams';

describe('pipe and dashboard lifecycle (e2e)', () => {
  let world: UpstreamWorld;
  let canary: string;
  const pipes = (suffix = '') =>
    `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes${suffix}`;
  const as = (role: 'operator' | 'viewer' | 'auditor') => bearer(world.tenant.keys[role]);

  beforeAll(async () => {
    world = await startUpstreamWorld();
    canary = canaryOf(world);
  });
  afterAll(async () => {
    await world.close();
  });
  beforeEach(() => {
    world.pipes.clearRequests();
    world.dashboards.clearRequests();
  });

  async function createPipe(body = validCreateBody('kafka', { secret: `${canary}-spec` })): Promise<string> {
    const created = await world.gateway.http.post(pipes()).set(as('operator')).send(body).expect(200);
    return created.body.result.id as string;
  }

  async function auditOf(action: string, target: string): Promise<{ outcome: string; details: any }[]> {
    const page = await world.gateway.http
      .get('/v1/audit')
      .query({ action, target })
      .set(as('auditor'))
      .expect(200);
    return (page.body.items as { outcome: string; details: any }[]).reverse();
  }

  describe('pipes', () => {
    it("lists the service's pipes and reads one, with no secret", async () => {
      const first = await createPipe();
      const second = await createPipe(realShapedCreateBodies(`${canary}-2`)[1].body);
      const list = await world.gateway.http.get(pipes()).set(as('viewer')).expect(200);
      expect(list.body).toMatchObject({ status: 200, requestId: expect.any(String) });
      const ids = (list.body.result as { id: string }[]).map((pipe) => pipe.id);
      expect(ids).toEqual(expect.arrayContaining([first, second]));
      const read = await world.gateway.http
        .get(pipes(`/${first}`))
        .set(as('viewer'))
        .expect(200);
      expect(read.body.result).toMatchObject({ id: first, state: expect.any(String) });
      for (const body of [list.text, read.text]) expect(body).not.toContain(canary);
    });

    it('deletes a pipe, audited, keeping its create spec in the history marked deleted', async () => {
      const pipeId = await createPipe();
      const deleted = await world.gateway.http
        .delete(pipes(`/${pipeId}`))
        .set(as('operator'))
        .expect(200);
      expect(deleted.body).toEqual({ status: 200, requestId: expect.any(String) });
      expect(world.pipes.storedPipe(pipeId)).toBeUndefined();
      expect((await auditOf('pipe.delete', `pipe:${pipeId}`)).map((event) => event.outcome)).toEqual([
        'pending',
        'succeeded',
      ]);
      const history = await world.gateway.http
        .get('/v1/history/pipe-specs')
        .query({ limit: '200' })
        .set(as('auditor'));
      const entry = (history.body.items as { pipeId: string; deletedAt: string | null }[]).find(
        (item) => item.pipeId === pipeId,
      );
      expect(entry?.deletedAt).toEqual(expect.any(String));
      const again = await world.gateway.http
        .delete(pipes(`/${pipeId}`))
        .set(as('operator'))
        .expect(404);
      expect(again.body.upstream.status).toBe(404);
      expect((await auditOf('pipe.delete', `pipe:${pipeId}`)).at(-1)?.outcome).toBe('failed');
    });

    it('stops and starts a pipe, audited with the command, and passes a refused transition on', async () => {
      const pipeId = await createPipe();
      const stopped = await world.gateway.http
        .patch(pipes(`/${pipeId}/state`))
        .set(as('operator'))
        .send({ command: 'stop' })
        .expect(200);
      expect(stopped.body.result.state).toBe('Stopping');
      const twice = await world.gateway.http
        .patch(pipes(`/${pipeId}/state`))
        .set(as('operator'))
        .send({ command: 'stop' })
        .expect(409);
      expect(twice.body.upstream.body.error).toContain('cannot be stopped');
      const events = await auditOf('pipe.state', `pipe:${pipeId}`);
      expect(events.map((event) => [event.outcome, event.details.command])).toEqual([
        ['pending', 'stop'],
        ['succeeded', 'stop'],
        ['pending', 'stop'],
        ['failed', 'stop'],
      ]);
    });

    it('resyncs a database pipe', async () => {
      const postgres = realShapedCreateBodies(`${canary}-pg`).find(({ body }) => body.source.postgres)!;
      const pipeId = await createPipe(postgres.body);
      world.pipes.setPipeState(pipeId, 'Running');
      const resynced = await world.gateway.http
        .patch(pipes(`/${pipeId}/state`))
        .set(as('operator'))
        .send({ command: 'resync' })
        .expect(200);
      expect(resynced.body.result.state).toBe('Resync');
    });

    it('scales a pipe and replaces its settings, each audited with the change', async () => {
      const pipeId = await createPipe();
      const scaled = await world.gateway.http
        .patch(pipes(`/${pipeId}/scaling`))
        .set(as('operator'))
        .send({ replicas: 3, replicaCpuMillicores: 1000, replicaMemoryGb: 4 })
        .expect(200);
      expect(scaled.body.result.scaling).toMatchObject({
        replicas: 3,
        replicaCpuMillicores: '1000m',
        replicaMemoryGb: '4Gi',
      });
      const settings = { clickhouse_max_insert_threads: 4, engine_max_threads: 2 };
      const replaced = await world.gateway.http
        .put(pipes(`/${pipeId}/settings`))
        .set(as('operator'))
        .send(settings)
        .expect(200);
      expect(replaced.body.result).toEqual(settings);
      expect(world.pipes.requests().at(-1)).toMatchObject({ method: 'PUT', body: settings });
      expect((await auditOf('pipe.scale', `pipe:${pipeId}`)).at(-1)?.details.change).toEqual({
        replicas: 3,
        replicaCpuMillicores: 1000,
        replicaMemoryGb: 4,
      });
      expect((await auditOf('pipe.settings', `pipe:${pipeId}`)).at(-1)?.outcome).toBe('succeeded');
    });

    it.each([
      ['an unknown state command', '/state', 'PATCH', { command: 'pause' }, 'command'],
      ['no state command', '/state', 'PATCH', {}, 'command'],
      ['replicas over 40', '/scaling', 'PATCH', { replicas: 41 }, 'replicas'],
      [
        'CPU under 125 millicores',
        '/scaling',
        'PATCH',
        { replicaCpuMillicores: 124 },
        'replicaCpuMillicores',
      ],
      ['memory under 0.5 GB', '/scaling', 'PATCH', { replicaMemoryGb: 0.25 }, 'replicaMemoryGb'],
      [
        'a setting out of range',
        '/settings',
        'PUT',
        { object_storage_concurrency: 0 },
        'object_storage_concurrency',
      ],
      ['an unknown setting that is no JSON scalar', '/settings', 'PUT', { threads: { max: 1 } }, 'threads'],
    ])(
      'refuses %s with a 400 naming the path, before any upstream call',
      async (_name, suffix, method, body, path) => {
        const pipeId = randomUUID();
        const call =
          method === 'PUT'
            ? world.gateway.http.put(pipes(`/${pipeId}${suffix}`))
            : world.gateway.http.patch(pipes(`/${pipeId}${suffix}`));
        const response = await call.set(as('operator')).send(body).expect(400);
        expect(response.body.errors.map((error: { path: string }) => error.path)).toEqual([path]);
        expect(world.pipes.requests()).toHaveLength(0);
      },
    );

    it.each([
      ['GET', '', undefined],
      ['DELETE', '', undefined],
      ['PATCH', '/state', { command: 'start' }],
      ['PATCH', '/scaling', { replicas: 2 }],
      ['PUT', '/settings', { clickhouse_max_threads: 1 }],
    ] as const)('passes the upstream 404 of an unknown pipe on: %s %s', async (method, suffix, body) => {
      const path = pipes(`/${randomUUID()}${suffix}`);
      const request = world.gateway.http[method.toLowerCase() as 'get'](path).set(as('operator'));
      const response = await (body ? request.send(body) : request).expect(404);
      expect(response.body.upstream.status).toBe(404);
    });

    it('keeps viewers to reads', async () => {
      const pipeId = await createPipe();
      await world.gateway.http
        .delete(pipes(`/${pipeId}`))
        .set(as('viewer'))
        .expect(403);
      await world.gateway.http
        .patch(pipes(`/${pipeId}/state`))
        .set(as('viewer'))
        .send({ command: 'stop' })
        .expect(403);
      await world.gateway.http
        .patch(pipes(`/${pipeId}/scaling`))
        .set(as('viewer'))
        .send({ replicas: 2 })
        .expect(403);
      await world.gateway.http
        .put(pipes(`/${pipeId}/settings`))
        .set(as('viewer'))
        .send({})
        .expect(403);
      expect(world.pipes.storedPipe(pipeId)).toBeDefined();
    });
  });

  describe('dashboards', () => {
    const dashboards = '/v1/dashboards';

    it('lists dashboards as the service answers them', async () => {
      const seeded = world.dashboards.seedDashboard({ name: 'Listed', tiles: [] });
      const list = await world.gateway.http.get(dashboards).set(as('viewer')).expect(200);
      expect(list.body.data).toEqual(expect.arrayContaining([seeded]));
    });

    it('creates a dashboard with its new id and ETag, keeps it as version 1, and audits it', async () => {
      const created = await world.gateway.http
        .post(dashboards)
        .set(as('operator'))
        .send(validDashboardBody())
        .expect(201);
      const id = created.body.data.id as string;
      expect(world.dashboards.storedDashboard(id)).toEqual(created.body.data);
      expect(created.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
      const read = await world.gateway.http.get(`${dashboards}/${id}`).set(as('viewer')).expect(200);
      expect(read.headers.etag).toBe(created.headers.etag);
      const version = await world.gateway.http
        .get(`${dashboards}/${id}/versions/1`)
        .set(as('viewer'))
        .expect(200);
      expect(version.body.data).toEqual(created.body.data);
      const events = await auditOf('dashboard.create', 'dashboard:new');
      expect(events.at(-1)).toMatchObject({ outcome: 'succeeded', details: { dashboardId: id } });
    });

    it('answers a repeated create with an Idempotency-Key as the first, creating one dashboard', async () => {
      const key = `create-${randomUUID()}`;
      const body = { ...validDashboardBody(), name: `idempotent ${key}` };
      const first = await world.gateway.http
        .post(dashboards)
        .set(as('operator'))
        .set('Idempotency-Key', key)
        .send(body)
        .expect(201);
      const second = await world.gateway.http
        .post(dashboards)
        .set(as('operator'))
        .set('Idempotency-Key', key)
        .send(body)
        .expect(201);
      expect(second.body).toEqual(first.body);
      expect(world.dashboards.requests().filter((request) => request.method === 'POST')).toHaveLength(1);
      const other = await world.gateway.http
        .post(dashboards)
        .set(as('operator'))
        .set('Idempotency-Key', key)
        .send({ ...body, name: 'another' })
        .expect(422);
      expect(other.body.type).toMatch(/idempotency-key-reused$/);
    });

    it('answers a repeated create whose first the service refused with the same problem, calling it once', async () => {
      const key = `refused-${randomUUID()}`;
      const body = { ...validDashboardBody(), name: `refused ${key}` };
      world.dashboards.faults.add({ kind: 'status', status: 500, method: 'POST', times: 1 });
      const send = () =>
        world.gateway.http.post(dashboards).set(as('operator')).set('Idempotency-Key', key).send(body);
      const first = await send().expect(502);
      const second = await send().expect(502);
      expect(second.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(second.body).toEqual(first.body);
      expect(world.dashboards.requests().filter((request) => request.method === 'POST')).toHaveLength(1);
      const events = await auditOf('dashboard.create', 'dashboard:new');
      expect(events.at(-1)).toMatchObject({ outcome: 'failed', details: { problem: 'upstream-error' } });
    });

    it('refuses a create body it owns the rules of, before any upstream call', async () => {
      const response = await world.gateway.http
        .post(dashboards)
        .set(as('operator'))
        .send({ tiles: [] })
        .expect(400);
      expect(response.body.errors).toEqual([{ path: 'name', message: 'is required' }]);
      expect(world.dashboards.requests()).toHaveLength(0);
    });

    it('deletes a dashboard keeping its versions, and a restore creates it again with them', async () => {
      const id = world.dashboards.seedDashboard({ ...validDashboardBody(), name: 'Doomed' }).id;
      await world.gateway.http
        .put(`${dashboards}/${id}`)
        .set(as('operator'))
        .send({ ...validDashboardBody(), name: 'Doomed v2' })
        .expect(200);
      await world.gateway.http.delete(`${dashboards}/${id}`).set(as('operator')).expect(204);
      expect(world.dashboards.storedDashboard(id)).toBeUndefined();
      await world.gateway.http.get(`${dashboards}/${id}`).set(as('viewer')).expect(404);
      const versions = await world.gateway.http
        .get(`${dashboards}/${id}/versions`)
        .set(as('viewer'))
        .expect(200);
      expect(versions.body.items.map((item: { version: number }) => item.version)).toEqual([2, 1]);
      expect((await auditOf('dashboard.delete', `dashboard:${id}`)).map((event) => event.outcome)).toEqual([
        'pending',
        'succeeded',
      ]);

      await world.gateway.http
        .post(`${dashboards}/${id}/versions/2/restore`)
        .set(as('operator'))
        .set('If-Match', '"0123"')
        .expect(412);
      const restored = await world.gateway.http
        .post(`${dashboards}/${id}/versions/2/restore`)
        .set(as('operator'))
        .expect(200);
      const newId = restored.body.data.id as string;
      expect(newId).not.toBe(id);
      expect(world.dashboards.storedDashboard(newId)?.name).toBe('Doomed v2');
      const moved = await world.gateway.http
        .get(`${dashboards}/${newId}/versions`)
        .set(as('viewer'))
        .expect(200);
      expect(moved.body.items.map((item: { version: number }) => item.version)).toEqual([3, 2, 1]);
      const left = await world.gateway.http.get(`${dashboards}/${id}/versions`).set(as('viewer')).expect(200);
      expect(left.body.items).toEqual([]);
    });

    it('passes the upstream 404 of an unknown dashboard on, on delete', async () => {
      const response = await world.gateway.http
        .delete(`${dashboards}/aaaaaaaaaaaaaaaaaaaaaaaa`)
        .set(as('operator'))
        .expect(404);
      expect(response.body.upstream.status).toBe(404);
    });

    it('keeps viewers to reads', async () => {
      const id = world.dashboards.seedDashboard({ name: 'Kept', tiles: [] }).id;
      await world.gateway.http.post(dashboards).set(as('viewer')).send(validDashboardBody()).expect(403);
      await world.gateway.http.delete(`${dashboards}/${id}`).set(as('viewer')).expect(403);
      expect(world.dashboards.storedDashboard(id)).toBeDefined();
    });
  });

  it('keeps every planted secret out of the stored rows, the audit export and the logs', async () => {
    const prisma = world.gateway.app.get(PrismaService);
    for (const table of ['audit_events', 'pipe_spec_records', 'dashboard_versions', 'idempotent_requests']) {
      const rows = await prisma.$queryRawUnsafe<unknown[]>(`SELECT to_jsonb(t)::text AS row FROM ${table} t`);
      expect(JSON.stringify(rows)).not.toContain(canary);
    }
    const audit = await world.gateway.http.get('/v1/audit/export').set(as('auditor')).expect(200);
    expect(audit.text).not.toContain(canary);
    expect(world.gateway.logs.text()).not.toContain(canary);
  });
});

describe('lifecycle routes against an upstream that is not the sandbox (e2e)', () => {
  let pipesUpstream: CannedUpstream;
  let dashboardsUpstream: CannedUpstream;
  let world: UpstreamWorld;

  beforeAll(async () => {
    pipesUpstream = await CannedUpstream.start();
    dashboardsUpstream = await CannedUpstream.start();
    world = await startUpstreamWorld({
      PIPES_API_URL: pipesUpstream.url,
      PIPES_API_RESOURCE: 'clickpipes',
      DASHBOARDS_API_URL: dashboardsUpstream.url,
    });
  });
  afterAll(async () => {
    await world.close();
    await pipesUpstream.close();
    await dashboardsUpstream.close();
  });

  it('sends each pipes operation where the service documents it, and answers its envelope', async () => {
    const base = `/v1/organizations/${world.organizationId}/services/${world.serviceId}/clickpipes`;
    const pipeId = randomUUID();
    const envelope = (result?: unknown) => ({
      status: 200,
      requestId: randomUUID(),
      ...(result === undefined ? {} : { result }),
    });
    const pipe = {
      id: pipeId,
      name: 'p',
      state: 'Running',
      source: { kafka: { connectionString: 'Endpoint=sb://x/;SharedAccessKey=upstream-echo' } },
    };
    const cases = [
      ['GET', '', 'GET', base, undefined, envelope([pipe])],
      ['GET', `/${pipeId}`, 'GET', `${base}/${pipeId}`, undefined, envelope(pipe)],
      ['DELETE', `/${pipeId}`, 'DELETE', `${base}/${pipeId}`, undefined, envelope()],
      [
        'PATCH',
        `/${pipeId}/state`,
        'PATCH',
        `${base}/${pipeId}/state`,
        { command: 'resync' },
        envelope(pipe),
      ],
      [
        'PATCH',
        `/${pipeId}/scaling`,
        'PATCH',
        `${base}/${pipeId}/scaling`,
        { replicas: 40, concurrency: 2 },
        envelope(pipe),
      ],
      [
        'PUT',
        `/${pipeId}/settings`,
        'PUT',
        `${base}/${pipeId}/settings`,
        { clickhouse_max_threads: 3 },
        envelope({ clickhouse_max_threads: 3 }),
      ],
    ] as const;
    for (const [method, suffix, upstreamMethod, upstreamPath, body, reply] of cases) {
      pipesUpstream.reply(upstreamMethod, upstreamPath, { status: 200, body: reply });
      const path = `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes${suffix}`;
      const request = world.gateway.http[method.toLowerCase() as 'get'](path).set(
        bearer(world.tenant.keys.operator),
      );
      const response = await (body ? request.send(body) : request).expect(200);
      const sent = pipesUpstream.requests.at(-1)!;
      expect([sent.method, sent.path, sent.body]).toEqual([upstreamMethod, upstreamPath, body]);
      expect(sent.headers.authorization).toMatch(/^Basic /);
      expect(response.text).not.toContain('upstream-echo');
      expect(response.body.requestId).toBe(reply.requestId);
    }
  });

  it('sends each dashboards operation where the service documents it', async () => {
    const created = { id: '65a1b2c3d4e5f60718293aff', name: 'made', tiles: [], tags: [] };
    dashboardsUpstream.reply('GET', '/api/v2/dashboards', { status: 200, body: { data: [created] } });
    dashboardsUpstream.reply('POST', '/api/v2/dashboards', { status: 200, body: { data: created } });
    dashboardsUpstream.reply('GET', `/api/v2/dashboards/${created.id}`, {
      status: 200,
      body: { data: created },
    });
    dashboardsUpstream.reply('DELETE', `/api/v2/dashboards/${created.id}`, { status: 204 });
    const operator = bearer(world.tenant.keys.operator);
    expect((await world.gateway.http.get('/v1/dashboards').set(operator).expect(200)).body).toEqual({
      data: [created],
    });
    const body = { name: 'made', tiles: [], futureField: 1 };
    expect(
      (await world.gateway.http.post('/v1/dashboards').set(operator).send(body).expect(201)).body,
    ).toEqual({ data: created });
    expect(dashboardsUpstream.requests.at(-1)).toMatchObject({ method: 'POST', body });
    await world.gateway.http.delete(`/v1/dashboards/${created.id}`).set(operator).expect(204);
    expect(
      dashboardsUpstream.requests.slice(-2).map((request) => `${request.method} ${request.path}`),
    ).toEqual([`GET /api/v2/dashboards/${created.id}`, `DELETE /api/v2/dashboards/${created.id}`]);
    expect(
      dashboardsUpstream.requests.every(
        (request) => request.headers.authorization === `Bearer ${world.dashboardsToken}`,
      ),
    ).toBe(true);
  });

  it('answers 502 when a create answer does not name the new dashboard', async () => {
    dashboardsUpstream.reply('POST', '/api/v2/dashboards', {
      status: 200,
      body: { data: { name: 'no id' } },
    });
    const response = await world.gateway.http
      .post('/v1/dashboards')
      .set(bearer(world.tenant.keys.operator))
      .send({ name: 'x', tiles: [] })
      .expect(502);
    expect(response.body.type).toMatch(/upstream-invalid-answer$/);
  });
});
