import { randomUUID } from 'node:crypto';
import { PrismaService } from '../src/database/prisma.service';
import { validDashboardBody } from './fixtures/dashboard-bodies';
import { bearer } from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';
import { describeWithPostgres } from './support/skip';
import { startUpstreamWorld, type UpstreamWorld } from './support/upstreams';

/**
 * Writes of one dashboard never overlap: in one process they queue, and across processes sharing
 * the database each claims the dashboard's row with its pending audit event (DashboardWrites).
 */
describe('dashboard writes: one at a time per dashboard (e2e)', () => {
  let world: UpstreamWorld;
  const operator = () => bearer(world.tenant.keys.operator);

  beforeAll(async () => {
    world = await startUpstreamWorld({ UPSTREAM_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await world.close();
  });

  function seed(): string {
    return world.dashboards.seedDashboard({ ...validDashboardBody(), name: 'original' }).id;
  }

  /** Plants a claim as a process that died mid-write would leave it, held until `until`. */
  async function plantClaim(dashboardId: string, until: Date): Promise<void> {
    const prisma = world.gateway.app.get(PrismaService);
    await prisma.dashboardWriteHead.upsert({
      where: { tenantId_dashboardId: { tenantId: world.tenant.id, dashboardId } },
      create: {
        tenantId: world.tenant.id,
        dashboardId,
        generation: 7,
        writer: randomUUID(),
        writingUntil: until,
      },
      update: { writer: randomUUID(), writingUntil: until },
    });
  }

  const replace = (gateway: TestGateway, id: string, name: string) =>
    gateway.http
      .put(`/v1/dashboards/${id}`)
      .set(operator())
      .send({ ...validDashboardBody(), name });

  it('waits for a claim another process holds, and answers 409 dashboard-busy when it is not given back in time', async () => {
    const id = seed();
    await plantClaim(id, new Date(Date.now() + 60_000));
    const started = Date.now();
    const refused = await replace(world.gateway, id, 'blocked').expect(409);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(refused.body.type).toMatch(/dashboard-busy$/);
    expect(refused.headers['retry-after']).toBe('1');
    expect(world.dashboards.storedDashboard(id)?.name).toBe('original');
    const versions = await world.gateway.http
      .get(`/v1/dashboards/${id}/versions`)
      .set(bearer(world.tenant.keys.viewer))
      .expect(200);
    expect(versions.body.items).toEqual([]);
  });

  it('takes over a claim whose write never finished once it has lapsed', async () => {
    const id = seed();
    await plantClaim(id, new Date(Date.now() - 1_000));
    await replace(world.gateway, id, 'after the crash').expect(200);
    expect(world.dashboards.storedDashboard(id)?.name).toBe('after the crash');
    const prisma = world.gateway.app.get(PrismaService);
    const head = await prisma.dashboardWriteHead.findUniqueOrThrow({
      where: { tenantId_dashboardId: { tenantId: world.tenant.id, dashboardId: id } },
    });
    // Given back by the outcome: the next write need not wait.
    expect(head).toMatchObject({ generation: 8, writer: null, writingUntil: null });
  });

  it('gives the claim back when the upstream write fails', async () => {
    const id = seed();
    world.dashboards.faults.add({ kind: 'status', status: 500, method: 'PUT', times: 3 });
    await replace(world.gateway, id, 'refused').expect(502);
    world.dashboards.faults.clear();
    await replace(world.gateway, id, 'accepted').expect(200);
    expect(world.dashboards.storedDashboard(id)?.name).toBe('accepted');
  });
});

describeWithPostgres('dashboard writes across gateway processes (e2e)', () => {
  let world: UpstreamWorld;
  // A second gateway on the same database and upstreams, as another replica would be.
  let other: TestGateway;
  const operator = () => bearer(world.tenant.keys.operator);
  const viewer = () => bearer(world.tenant.keys.viewer);

  beforeAll(async () => {
    world = await startUpstreamWorld();
    other = await startGateway({
      PIPES_API_URL: world.pipes.url,
      DASHBOARDS_API_URL: world.dashboards.url,
      UPSTREAM_TIMEOUT_MS: '2000',
    });
  });
  afterAll(async () => {
    await other.close();
    await world.close();
  });
  afterEach(() => world.dashboards.faults.clear());

  const gateways = () => [world.gateway, other];
  const seed = (): string => world.dashboards.seedDashboard({ ...validDashboardBody(), name: 'original' }).id;
  const replace = (gateway: TestGateway, id: string, name: string, ifMatch?: string) => {
    const request = gateway.http.put(`/v1/dashboards/${id}`).set(operator());
    if (ifMatch !== undefined) request.set('If-Match', ifMatch);
    return request.send({ ...validDashboardBody(), name });
  };

  it('lets only one of two editors with the same ETag win, each through another process', async () => {
    // Slow reads keep both writes in flight together.
    world.dashboards.faults.add({ kind: 'latency', ms: 100, method: 'GET' });
    for (let round = 0; round < 4; round++) {
      const id = seed();
      const { etag } = (await world.gateway.http.get(`/v1/dashboards/${id}`).set(viewer()).expect(200))
        .headers;
      const results = await Promise.all(
        gateways().map((gateway, n) => replace(gateway, id, `editor ${n}`, etag)),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
    }
  });

  it('keeps every content a dashboard had as a version when processes write it at once', async () => {
    world.dashboards.faults.add({ kind: 'latency', ms: 20, method: 'GET' });
    const id = seed();
    const names = Array.from({ length: 12 }, (_, n) => `edit ${n}`);
    const results = await Promise.all(names.map((name, n) => replace(gateways()[n % 2], id, name)));
    expect(results.map((r) => r.status)).toEqual(names.map(() => 200));

    const versions = await world.gateway.http.get(`/v1/dashboards/${id}/versions`).set(viewer()).expect(200);
    expect(versions.body.items.map((v: { version: number }) => v.version)).toEqual(
      names.map((_, n) => names.length - n),
    );
    // Each write kept what it replaced: the original and every edit but the last, each once.
    const kept = await Promise.all(
      versions.body.items.map(
        async (v: { version: number }) =>
          (
            await world.gateway.http
              .get(`/v1/dashboards/${id}/versions/${v.version}`)
              .set(viewer())
              .expect(200)
          ).body.data.name as string,
      ),
    );
    const final = world.dashboards.storedDashboard(id)!.name;
    expect([...kept, final].sort()).toEqual(['original', ...names].sort());
  });

  it('reads again when another process wrote the dashboard since this one last did', async () => {
    const id = seed();
    await replace(world.gateway, id, 'first, here').expect(200);
    const elsewhere = await replace(other, id, 'second, elsewhere').expect(200);
    // This process still knows the dashboard as its own write left it; its claim fails, it reads
    // the dashboard again, and the If-Match of the other process's answer then matches.
    await replace(world.gateway, id, 'third, here', elsewhere.headers.etag).expect(200);
    const versions = await world.gateway.http.get(`/v1/dashboards/${id}/versions`).set(viewer()).expect(200);
    const newest = await world.gateway.http
      .get(`/v1/dashboards/${id}/versions/${versions.body.items[0].version}`)
      .set(viewer())
      .expect(200);
    expect(newest.body.data.name).toBe('second, elsewhere');
  });
});
