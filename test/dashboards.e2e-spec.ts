import { PrismaService } from '../src/database/prisma.service';
import { validDashboardBody } from './fixtures/dashboard-bodies';
import { bearer, createTenant } from './support/fixtures';
import { canaryOf, startUpstreamWorld, UpstreamWorld } from './support/upstreams';

describe('dashboards facade (e2e)', () => {
  let world: UpstreamWorld;
  const operator = () => bearer(world.tenant.keys.operator);
  const viewer = () => bearer(world.tenant.keys.viewer);
  const puts = () => world.dashboards.requests().filter((r) => r.method === 'PUT');

  function seed(tiles = 2): string {
    return world.dashboards.seedDashboard({
      name: 'Checkout',
      tags: ['team-a'],
      tiles: Array.from({ length: tiles }, (_, i) => ({
        name: `tile ${i}`,
        x: i,
        y: 0,
        w: 4,
        h: 2,
        series: [{ type: 'time', dataSource: 'events', aggFn: 'count', where: 'level:error', groupBy: [] }],
      })),
    }).id;
  }

  beforeAll(async () => {
    world = await startUpstreamWorld();
  });
  afterAll(async () => {
    await world.close();
  });
  beforeEach(() => {
    world.dashboards.faults.clear();
    world.dashboards.clearRequests();
  });

  it('reads {data} as the upstream sent it, with an ETag, using the Bearer token', async () => {
    const id = seed();
    const response = await world.gateway.http.get(`/v1/dashboards/${id}`).set(viewer()).expect(200);
    expect(response.body.data).toEqual(world.dashboards.storedDashboard(id));
    expect(response.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(world.dashboards.requests()[0].headers.authorization).toBe(`Bearer ${world.dashboardsToken}`);
    expect(JSON.stringify(response.body)).not.toContain(canaryOf(world));
  });

  it('replaces: new tiles get ids, kept ids stay, left-out tiles go; the audit event says which', async () => {
    const id = seed(3);
    const before = await world.gateway.http.get(`/v1/dashboards/${id}`).set(viewer()).expect(200);
    const [keep, , drop] = before.body.data.tiles;
    const body = {
      name: 'Checkout v2',
      tags: ['team-a', 'v2'],
      tiles: [
        { ...keep, name: 'kept' },
        { name: 'new', x: 0, y: 4, w: 2, h: 2, series: [] },
      ],
    };
    const response = await world.gateway.http
      .put(`/v1/dashboards/${id}`)
      .set(operator())
      .set('If-Match', before.headers.etag)
      .send(body)
      .expect(200);
    const tiles = response.body.data.tiles as { id: string; name: string }[];
    expect(tiles).toHaveLength(2);
    expect(tiles[0]).toMatchObject({ id: keep.id, name: 'kept' });
    expect(tiles[1].id).toMatch(/^[0-9a-f]{24}$/);
    expect(tiles.map((t) => t.id)).not.toContain(drop.id);
    expect(response.headers.etag).not.toBe(before.headers.etag);

    const events = await world.gateway.app.get(PrismaService).auditEvent.findMany({
      where: {
        tenantId: world.tenant.id,
        action: 'dashboard.replace',
        target: `dashboard:${id}`,
        outcome: 'succeeded',
      },
    });
    expect(events).toHaveLength(1);
    expect(events[0].details).toMatchObject({
      tilesRemoved: expect.arrayContaining([drop.id]),
      tilesAdded: [tiles[1].id],
    });
  });

  it('refuses a stale If-Match with 412 and writes nothing', async () => {
    const id = seed();
    const before = await world.gateway.http.get(`/v1/dashboards/${id}`).set(viewer()).expect(200);
    await world.gateway.http
      .put(`/v1/dashboards/${id}`)
      .set(operator())
      .send({ ...validDashboardBody(), name: 'changed' })
      .expect(200);
    world.dashboards.clearRequests();
    const stale = await world.gateway.http
      .put(`/v1/dashboards/${id}`)
      .set(operator())
      .set('If-Match', before.headers.etag)
      .send(validDashboardBody())
      .expect(412);
    expect(stale.body.type).toMatch(/dashboard-changed$/);
    expect(puts()).toHaveLength(0);
    expect(world.dashboards.storedDashboard(id)?.name).toBe('changed');
  });

  it('keeps the ETag of an unchanged dashboard and changes it when the dashboard changes upstream', async () => {
    const id = seed();
    const read = () => world.gateway.http.get(`/v1/dashboards/${id}`).set(viewer()).expect(200);
    const first = await read();
    // Read again unchanged, the answer is sent from the text kept for it: the same body, as JSON.
    const again = await read();
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.text).toBe(first.text);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');

    // Edited in the dashboards server's own interface, past the gateway.
    const stored = world.dashboards.storedDashboard(id)!;
    world.dashboards.seedDashboard({ ...stored, name: 'edited upstream' });
    const changed = await read();
    expect(changed.body.data.name).toBe('edited upstream');
    expect(changed.headers.etag).not.toBe(first.headers.etag);

    const replace = (etag: string) =>
      world.gateway.http
        .put(`/v1/dashboards/${id}`)
        .set(operator())
        .set('If-Match', etag)
        .send(validDashboardBody());
    await replace(first.headers.etag).expect(412);
    const replaced = await replace(changed.headers.etag).expect(200);
    expect((await read()).headers.etag).toBe(replaced.headers.etag);
  });

  it('lets only one of two concurrent editors with the same ETag win', async () => {
    const id = seed();
    const before = await world.gateway.http.get(`/v1/dashboards/${id}`).set(viewer()).expect(200);
    const edit = (name: string) =>
      world.gateway.http
        .put(`/v1/dashboards/${id}`)
        .set(operator())
        .set('If-Match', before.headers.etag)
        .send({ ...validDashboardBody(), name });
    const results = await Promise.all([edit('alice'), edit('bob')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
    expect(puts()).toHaveLength(1);
  });

  it('serves more concurrent replaces than the database pool has connections', async () => {
    // Each replace holds its dashboard's lock while its own transactions run: with a lock session
    // on every pooled connection, none of them could start one (503 after the pool timeout).
    const ids = Array.from({ length: 12 }, () => seed());
    const replace = (id: string, name: string) =>
      world.gateway.http
        .put(`/v1/dashboards/${id}`)
        .set(operator())
        .send({ ...validDashboardBody(), name });
    const results = await Promise.all(ids.flatMap((id) => [replace(id, 'first'), replace(id, 'second')]));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect(puts()).toHaveLength(24);
    for (const id of ids) {
      const versions = await world.gateway.http
        .get(`/v1/dashboards/${id}/versions`)
        .set(viewer())
        .expect(200);
      expect(versions.body.items).toHaveLength(2);
    }
  });

  it('keeps versions: list, show and restore (itself a new version)', async () => {
    const id = seed(2);
    const original = world.dashboards.storedDashboard(id)!;
    await world.gateway.http
      .put(`/v1/dashboards/${id}`)
      .set(operator())
      .set('X-On-Behalf-Of', 'carol')
      .send({ ...validDashboardBody(), name: 'second' })
      .expect(200);
    await world.gateway.http
      .put(`/v1/dashboards/${id}`)
      .set(operator())
      .send({ name: 'third', tiles: [], tags: [] })
      .expect(200);

    const list = await world.gateway.http.get(`/v1/dashboards/${id}/versions`).set(viewer()).expect(200);
    expect(list.body.items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(list.body.items[1]).toMatchObject({
      version: 1,
      tileCount: 2,
      onBehalfOf: 'carol',
      actor: `key:${world.tenant.keyIds.operator}`,
    });
    const first = await world.gateway.http.get(`/v1/dashboards/${id}/versions/1`).set(viewer()).expect(200);
    expect(first.body.data).toEqual(original);

    const restored = await world.gateway.http
      .post(`/v1/dashboards/${id}/versions/1/restore`)
      .set(operator())
      .expect(200);
    expect(restored.body.data.name).toBe('Checkout');
    // The tiles were deleted by the third replace, so the upstream gives the restored ones new ids.
    expect(restored.body.data.tiles.map((t: { name: string }) => t.name)).toEqual(
      original.tiles.map((t) => t.name),
    );
    const after = await world.gateway.http.get(`/v1/dashboards/${id}/versions`).set(viewer()).expect(200);
    expect(after.body.items[0]).toMatchObject({ version: 3, tileCount: 0 });

    await world.gateway.http.get(`/v1/dashboards/${id}/versions/99`).set(viewer()).expect(404);
    const zero = await world.gateway.http.get(`/v1/dashboards/${id}/versions/zero`).set(viewer()).expect(400);
    expect(zero.body.errors).toEqual([{ path: 'n', message: 'must be a whole number from 1 to 2147483647' }]);
    await world.gateway.http.post(`/v1/dashboards/${id}/versions/1/restore`).set(viewer()).expect(403);
  });

  it('stores no version when the replace fails upstream', async () => {
    const id = seed();
    world.dashboards.faults.add({
      kind: 'status',
      status: 400,
      method: 'PUT',
      body: { message: 'Body validation failed: name: Required' },
    });
    const response = await world.gateway.http
      .put(`/v1/dashboards/${id}`)
      .set(operator())
      .send(validDashboardBody())
      .expect(400);
    expect(response.body.upstream.body).toEqual({ message: 'Body validation failed: name: Required' });
    expect(response.body.detail).toBe('The dashboards API refused: Body validation failed: name: Required');
    const list = await world.gateway.http.get(`/v1/dashboards/${id}/versions`).set(viewer()).expect(200);
    expect(list.body.items).toHaveLength(0);
  });

  it.each([
    [
      'a string size',
      { name: 'x', tiles: [{ name: 't', x: '1', y: 0, w: 1, h: 1, series: [] }], tags: [] },
      'tiles[0].x',
    ],
    [
      'a negative size',
      { name: 'x', tiles: [{ name: 't', x: 0, y: 0, w: -1, h: 1, series: [] }], tags: [] },
      'tiles[0].w',
    ],
    [
      'a tile with both series and config',
      { name: 'x', tiles: [{ name: 't', x: 0, y: 0, w: 1, h: 1, series: [], config: {} }] },
      'tiles[0]',
    ],
    [
      'a tile id used twice',
      {
        name: 'x',
        tiles: [
          { id: 'a', x: 0, y: 0, w: 1, h: 1, config: {} },
          { id: 'a', x: 1, y: 0, w: 1, h: 1, config: {} },
        ],
      },
      'tiles[1].id',
    ],
    ['a tile past the grid', { name: 'x', tiles: [{ x: 23, y: 0, w: 25, h: 1, config: {} }] }, 'tiles[0].w'],
    ['a too long tag', { name: 'x', tiles: [], tags: ['t'.repeat(33)] }, 'tags[0]'],
    ['no name', { tiles: [], tags: [] }, 'name'],
  ])('rejects %s with 400 naming the path, before any upstream call', async (_label, body, path) => {
    const id = seed();
    const response = await world.gateway.http
      .put(`/v1/dashboards/${id}`)
      .set(operator())
      .send(body)
      .expect(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(world.dashboards.requests()).toHaveLength(0);
  });

  it.each(['a.b', 'x'.repeat(65), '..', '%2e%2e', 'a%2Fb'])('rejects the dashboard id %s', async (id) => {
    await world.gateway.http.get(`/v1/dashboards/${id}`).set(viewer()).expect(400);
    expect(world.dashboards.requests()).toHaveLength(0);
  });

  it('passes an unknown dashboard through as 404, with the reason the dashboards API gave', async () => {
    const response = await world.gateway.http
      .get('/v1/dashboards/aaaaaaaaaaaaaaaaaaaaaaaa')
      .set(viewer())
      .expect(404);
    expect(response.body).toMatchObject({
      detail: 'The dashboards API refused: Not Found',
      upstream: { status: 404, body: 'Not Found' },
    });
  });

  it('picks a credential with ?credentialId= and otherwise uses the default', async () => {
    const id = seed();
    const second = await world.gateway.http
      .post('/v1/credentials')
      .set(bearer(world.tenant.keys.admin))
      .send({ kind: 'dashboards', name: 'other workspace', token: 'a-token-the-upstream-refuses' })
      .expect(201);
    await world.gateway.http.get(`/v1/dashboards/${id}`).set(viewer()).expect(200);
    const refused = await world.gateway.http
      .get(`/v1/dashboards/${id}?credentialId=${second.body.id}`)
      .set(viewer())
      .expect(502);
    expect(refused.body.type).toMatch(/upstream-credential-rejected$/);
    expect(world.dashboards.requests().at(-1)?.headers.authorization).toBe(
      'Bearer a-token-the-upstream-refuses',
    );
    const notUuid = await world.gateway.http
      .get(`/v1/dashboards/${id}?credentialId=not-a-uuid`)
      .set(viewer())
      .expect(400);
    expect(notUuid.body.errors).toEqual([{ path: 'credentialId', message: 'must be a UUID' }]);
    const unknown = await world.gateway.http
      .get(`/v1/dashboards/${id}?credential=${second.body.id}`)
      .set(viewer())
      .expect(400);
    expect(unknown.body.errors).toEqual([{ path: 'credential', message: 'is not a known field' }]);
  });

  it("keeps tenants apart: another tenant's credential is 404, its versions invisible", async () => {
    const id = seed();
    await world.gateway.http
      .put(`/v1/dashboards/${id}`)
      .set(operator())
      .send(validDashboardBody())
      .expect(200);
    const other = await createTenant(world.gateway);
    await world.gateway.http
      .get(`/v1/dashboards/${id}?credentialId=${world.dashboardsCredentialId}`)
      .set(bearer(other.keys.viewer))
      .expect(404);
    await world.gateway.http.get(`/v1/dashboards/${id}`).set(bearer(other.keys.viewer)).expect(422);
    const versions = await world.gateway.http
      .get(`/v1/dashboards/${id}/versions`)
      .set(bearer(other.keys.viewer))
      .expect(200);
    expect(versions.body.items).toHaveLength(0);
    await world.gateway.http
      .get(`/v1/dashboards/${id}/versions/1`)
      .set(bearer(other.keys.viewer))
      .expect(404);
  });

  it('scrubs a token the upstream echoes back', async () => {
    const id = seed();
    world.dashboards.faults.add({ kind: 'echoSecrets' });
    // The second read is answered from what the first kept: redacted as well.
    for (let read = 0; read < 2; read++) {
      const response = await world.gateway.http.get(`/v1/dashboards/${id}`).set(viewer()).expect(200);
      expect(response.text).not.toContain(canaryOf(world));
    }
    expect(world.gateway.logs.text()).not.toContain(canaryOf(world));
  });
});
