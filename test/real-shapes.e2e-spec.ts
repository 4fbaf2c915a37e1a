/**
 * The gateway in front of the services as they really are: bodies shaped the way the pipes service
 * and the dashboards service publish them pass, reach the upstream exactly as sent, and come back
 * without their secrets; a dashboard read through the gateway can be written back through it.
 */
import { realShapedCreateBodies, realShapedUpdateBodies, refusedCreateBodies } from './fixtures/pipe-bodies';
import { seriesTiles, todaysDashboardBody } from './fixtures/dashboard-bodies';
import { bearer } from './support/fixtures';
import { canaryOf, expectKeptNowhere, startUpstreamWorld, UpstreamWorld } from './support/upstreams';

describe('real shapes of both services (e2e)', () => {
  let world: UpstreamWorld;
  let canary: string;
  const pipes = (suffix = '') =>
    `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes${suffix}`;
  const operator = () => bearer(world.tenant.keys.operator);

  beforeAll(async () => {
    world = await startUpstreamWorld();
    canary = canaryOf(world);
  });
  afterAll(async () => {
    await world.close();
  });
  beforeEach(() => world.pipes.clearRequests());

  describe.each(realShapedCreateBodies().map(({ name }, index) => [name, index]))('%s', (_name, index) => {
    it('is created with the body forwarded byte for byte, and no secret comes back', async () => {
      const { body } = realShapedCreateBodies(`${canary}-${index}`)[index];
      const created = await world.gateway.http.post(pipes()).set(operator()).send(body).expect(200);
      expect(JSON.stringify(created.body)).not.toContain(canary);
      const [sent] = world.pipes.requests();
      expect(JSON.stringify(sent.body)).toBe(JSON.stringify(body));

      const kind = Object.keys(body.source).find((key) => key !== 'validateSamples')!;
      expect(created.body.result.source[kind]).toBeDefined();
      const read = await world.gateway.http
        .get(pipes(`/${created.body.result.id}/settings`))
        .set(bearer(world.tenant.keys.viewer))
        .expect(200);
      expect(read.body.result).toEqual(body.settings ?? {});
    });
  });

  it('answers with the service defaults and quantity strings, passed through as sent', async () => {
    const { body } = realShapedCreateBodies(canary)[0];
    const created = await world.gateway.http.post(pipes()).set(operator()).send(body).expect(200);
    expect(created.body.result.source.kafka).toMatchObject({
      type: 'kafka',
      format: 'JSONEachRow',
      authentication: 'PLAIN',
    });
    expect(created.body.result.scaling).toMatchObject({
      replicaCpuMillicores: '250m',
      replicaMemoryGb: '1Gi',
    });
  });

  describe.each(realShapedUpdateBodies().map(({ name, kind }, index) => [name, kind, index]))(
    '%s',
    (_name, kind, index) => {
      it('is updated with the body forwarded as sent, nulls included', async () => {
        const base = realShapedCreateBodies(canary).find(({ body }) => body.source[kind] !== undefined)!;
        const created = await world.gateway.http.post(pipes()).set(operator()).send(base.body).expect(200);
        const { body } = realShapedUpdateBodies(`${canary}-${index}`)[index];
        const pipeId = created.body.result.id as string;
        const updated = await world.gateway.http
          .patch(pipes(`/${pipeId}`))
          .set(operator())
          .send(body)
          .expect(200);
        expect(JSON.stringify(updated.body)).not.toContain(canary);
        expect(JSON.stringify(world.pipes.requests()[1].body)).toBe(JSON.stringify(body));
        // A null clears the field upstream.
        const cleared = Object.entries(body.source[kind]).filter(([, value]) => value === null);
        const stored = world.pipes.storedPipe(pipeId)!.source[kind] as Record<string, unknown>;
        for (const [field] of cleared) expect(stored[field]).toBeUndefined();
      });
    },
  );

  it('keeps every planted secret out of the history, the audit log and the logs', async () => {
    await expectKeptNowhere(world, canary);
  });

  it.each(refusedCreateBodies().map(({ name, body, path }) => [name, body, path]))(
    'refuses %s with a 400 naming its path, before any upstream call',
    async (_name, body, path) => {
      const response = await world.gateway.http.post(pipes()).set(operator()).send(body).expect(400);
      expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
      expect(world.pipes.requests()).toHaveLength(0);
    },
  );

  describe('dashboards', () => {
    const viewer = () => bearer(world.tenant.keys.viewer);

    it("writes a dashboard of today's shape back exactly as it was read", async () => {
      const { tiles, ...fields } = todaysDashboardBody();
      const id = world.dashboards.seedDashboard({ ...fields, tiles } as never).id;
      const read = await world.gateway.http.get(`/v1/dashboards/${id}`).set(viewer()).expect(200);
      const before = world.dashboards.storedDashboard(id);
      const written = await world.gateway.http
        .put(`/v1/dashboards/${id}`)
        .set(operator())
        .set('If-Match', read.headers.etag)
        .send(read.body.data)
        .expect(200);
      expect(world.dashboards.storedDashboard(id)).toEqual(before);
      expect(written.body.data).toEqual(read.body.data);
      expect(written.headers.etag).toBe(read.headers.etag);
    });

    it('takes every series type of the 2025 API with its fields, forwarded unchanged', async () => {
      const id = world.dashboards.seedDashboard({ name: 'series', tiles: [], tags: [] }).id;
      world.dashboards.clearRequests();
      const body = { name: 'series', tiles: seriesTiles(), tags: ['x'], futureField: { a: 1 } };
      const written = await world.gateway.http
        .put(`/v1/dashboards/${id}`)
        .set(operator())
        .send(body)
        .expect(200);
      expect(world.dashboards.requests().find((request) => request.method === 'PUT')?.body).toEqual(body);
      expect(written.body.data.tiles.map((tile: { series: unknown }) => tile.series)).toEqual(
        body.tiles.map((tile) => tile.series),
      );
    });

    it('keeps the dashboard fields a replace leaves out, and a restore puts every field back', async () => {
      const { tiles, ...fields } = todaysDashboardBody();
      const id = world.dashboards.seedDashboard({ ...fields, tiles } as never).id;
      const original = world.dashboards.storedDashboard(id)!;
      await world.gateway.http
        .put(`/v1/dashboards/${id}`)
        .set(operator())
        .send({ name: 'renamed', tiles: [], savedQuery: null, filters: [] })
        .expect(200);
      const replaced = world.dashboards.storedDashboard(id)!;
      expect(replaced).toMatchObject({ name: 'renamed', tiles: [], savedQuery: null, filters: [] });
      expect(replaced.containers).toEqual(original.containers);
      expect(replaced.tags).toEqual(original.tags);

      const versions = await world.gateway.http
        .get(`/v1/dashboards/${id}/versions`)
        .set(viewer())
        .expect(200);
      expect(versions.body.items[0].tileCount).toBe(2);
      await world.gateway.http.post(`/v1/dashboards/${id}/versions/1/restore`).set(operator()).expect(200);
      // The service gives tiles it no longer has new ids; everything else is back as it was.
      const restored = world.dashboards.storedDashboard(id)!;
      const withoutTileIds = ({ tiles, ...rest }: typeof original) => ({
        ...rest,
        tiles: tiles.map(({ id: _id, ...tile }) => tile),
      });
      expect(withoutTileIds(restored)).toEqual(withoutTileIds(original));
    });
  });

  it('calls the resource the real service names when PIPES_API_RESOURCE says so', async () => {
    const real = await startUpstreamWorld({ PIPES_API_RESOURCE: 'clickpipes' });
    try {
      const path = `/v1/organizations/${real.organizationId}/services/${real.serviceId}/pipes`;
      await real.gateway.http
        .post(path)
        .set(bearer(real.tenant.keys.operator))
        .send(realShapedCreateBodies()[0].body)
        .expect(200);
      expect(real.pipes.requests()[0].path).toBe(
        `/v1/organizations/${real.organizationId}/services/${real.serviceId}/clickpipes`,
      );
    } finally {
      await real.close();
    }
  });
});
