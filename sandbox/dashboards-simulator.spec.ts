import { CONTROL_PREFIX } from './http-simulator';
import { DashboardSeedError, startDashboardsSimulator } from './dashboards-simulator';
import type { DashboardsSimulator } from './dashboards-simulator';
import { call } from './test-http-client';
import type { CallInit } from './test-http-client';

const TOKEN = 'token-a';
const OBJECT_ID = /^[0-9a-f]{24}$/;
const UNKNOWN_ID = '0123456789abcdef01234567';

const tile = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  x: 0,
  y: 0,
  w: 6,
  h: 3,
  series: [{ type: 'time', dataSource: 'events', aggFn: 'count', where: 'level:error', groupBy: [] }],
  ...extra,
});

describe('dashboards simulator', () => {
  let simulator: DashboardsSimulator;

  const dashboardUrl = (id: string) => `${simulator.url}/api/v2/dashboards/${id}`;
  const send = (method: string, id: string, body?: unknown, init: CallInit = {}) =>
    call(dashboardUrl(id), {
      method,
      body,
      ...init,
      headers: { authorization: `Bearer ${TOKEN}`, ...init.headers },
    });
  const seed = () =>
    simulator.seedDashboard({ name: 'Errors', tags: ['prod'], tiles: [tile('one'), tile('two')] });

  beforeAll(async () => {
    simulator = await startDashboardsSimulator({ tokens: [TOKEN, 'token-b'] });
  });

  beforeEach(() => {
    simulator.reset();
  });

  afterAll(async () => {
    await simulator.close();
  });

  describe('seeding', () => {
    it('assigns 24-hex ids to the dashboard and to tiles without one, keeping given tile ids', () => {
      const dashboard = simulator.seedDashboard({
        name: 'Seeded',
        tiles: [tile('new'), tile('named', { id: 'my-tile' })],
      });
      expect(dashboard.id).toMatch(OBJECT_ID);
      expect(dashboard.tiles[0].id).toMatch(OBJECT_ID);
      expect(dashboard.tiles[1].id).toBe('my-tile');
      expect(dashboard.tags).toEqual([]);
      expect(simulator.storedDashboard(dashboard.id)).toEqual(dashboard);
    });

    it('keeps a given dashboard id and refuses an invalid one or an invalid body', () => {
      expect(simulator.seedDashboard({ id: UNKNOWN_ID, name: 'Fixed' }).id).toBe(UNKNOWN_ID);
      expect(() => simulator.seedDashboard({ id: 'short', name: 'x' })).toThrow(DashboardSeedError);
      expect(() => simulator.seedDashboard({ name: 'x', tags: ['t'.repeat(33)] })).toThrow(
        'tags.0: String must contain at most 32 character(s)',
      );
    });

    it('seeds over the control route', async () => {
      const response = await call(`${simulator.url}${CONTROL_PREFIX}/dashboards`, {
        method: 'POST',
        body: { name: 'Over HTTP', tiles: [tile('one')] },
      });
      expect(response.status).toBe(201);
      expect(response.json.data.id).toMatch(OBJECT_ID);
      expect((await send('GET', response.json.data.id)).json.data.name).toBe('Over HTTP');
      const invalid = await call(`${simulator.url}${CONTROL_PREFIX}/dashboards`, {
        method: 'POST',
        body: { tiles: [] },
      });
      expect(invalid.status).toBe(400);
      expect(invalid.json.error).toContain('name: Required');
    });
  });

  describe('authentication', () => {
    it.each([
      ['no token', {}],
      ['a wrong token', { authorization: 'Bearer nope' }],
      ['basic auth', { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }],
    ])('answers a plain-text 401 for %s', async (_case, headers) => {
      const dashboard = seed();
      const response = await call(dashboardUrl(dashboard.id), { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(response.text).toBe('Unauthorized');
    });

    it('accepts every configured token', async () => {
      const dashboard = seed();
      const response = await call(dashboardUrl(dashboard.id), {
        headers: { authorization: 'Bearer token-b' },
      });
      expect(response.status).toBe(200);
    });
  });

  describe('read', () => {
    it('answers the dashboard wrapped in data', async () => {
      const dashboard = seed();
      const response = await send('GET', dashboard.id);
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ data: dashboard });
    });

    it('answers a plain-text 404 for an unknown dashboard', async () => {
      const response = await send('GET', UNKNOWN_ID);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(response.text).toBe('Not Found');
    });

    it.each(['abc', 'zzzzzzzzzzzzzzzzzzzzzzzz', '0123456789abcdef012345678'])(
      'answers 400 for the id %s',
      async (id) => {
        const response = await send('GET', id);
        expect(response.status).toBe(400);
        expect(response.json).toEqual({ message: 'Params validation failed: id: Invalid ObjectId' });
      },
    );
  });

  describe('replace', () => {
    it('keeps tiles whose id exists, gives new ids to the rest and deletes tiles left out', async () => {
      const dashboard = seed();
      const [kept, dropped] = dashboard.tiles;
      const response = await send('PUT', dashboard.id, {
        name: 'Renamed',
        tags: ['prod', 'api', 'prod'],
        tiles: [
          tile('kept, moved', { id: kept.id, x: 6 }),
          tile('no id'),
          tile('unknown id', { id: 'aaaaaaaaaaaaaaaaaaaaaaaa' }),
        ],
      });
      expect(response.status).toBe(200);
      const data = response.json.data;
      expect(data.id).toBe(dashboard.id);
      expect(data.name).toBe('Renamed');
      expect(data.tags).toEqual(['prod', 'api']);
      expect(data.tiles).toHaveLength(3);
      expect(data.tiles[0]).toEqual({ ...tile('kept, moved', { x: 6 }), id: kept.id });
      expect(data.tiles[1].id).toMatch(OBJECT_ID);
      expect(data.tiles[2].id).toMatch(OBJECT_ID);
      expect(data.tiles[2].id).not.toBe('aaaaaaaaaaaaaaaaaaaaaaaa');
      expect(data.tiles.map((t: { id: string }) => t.id)).not.toContain(dropped.id);
      expect(simulator.storedDashboard(dashboard.id)).toEqual(data);
    });

    it('drops fields the schema does not know and keeps dashboard fields left out', async () => {
      const dashboard = seed();
      const configTile = { x: 6, y: 0, w: 6, h: 3, config: { displayType: 'line' }, colour: 'blue' };
      const response = await send('PUT', dashboard.id, {
        name: 'Same',
        owner: 'someone',
        tiles: [tile('t', { series: [{ type: 'number', colour: 'red' }] }), configTile],
      });
      expect(response.status).toBe(200);
      expect(response.json.data.owner).toBeUndefined();
      expect(response.json.data.tags).toEqual(['prod']);
      expect(response.json.data.tiles[0].series).toEqual([{ type: 'number' }]);
      expect(response.json.data.tiles[1]).toEqual({
        id: expect.stringMatching(OBJECT_ID),
        x: 6,
        y: 0,
        w: 6,
        h: 3,
        config: { displayType: 'line' },
      });
    });

    it("stores and answers the dashboard fields of today's API, replacing only those a body gives", async () => {
      const dashboard = simulator.seedDashboard({
        name: 'Today',
        tiles: [],
        filters: [{ id: 'f', expression: 'ServiceName' }],
        savedQuery: 'level:error',
        containers: [{ id: 'c', title: 'Overview' }],
      });
      const response = await send('PUT', dashboard.id, {
        name: 'Today',
        tiles: [],
        savedQuery: null,
        tags: ['x'],
      });
      expect(response.json.data).toEqual({
        ...dashboard,
        savedQuery: null,
        tags: ['x'],
      });
    });

    it('refuses a tile with both series and config, or neither', async () => {
      const dashboard = seed();
      const both = await send('PUT', dashboard.id, { name: 'x', tiles: [tile('t', { config: {} })] });
      const neither = await send('PUT', dashboard.id, {
        name: 'x',
        tiles: [tile('t', { series: undefined })],
      });
      for (const response of [both, neither]) {
        expect(response.status).toBe(400);
        expect(response.json.message).toContain('tiles.0: A tile must have either series or config');
      }
    });

    it('lets the last write win, keeping no versions', async () => {
      const dashboard = seed();
      await send('PUT', dashboard.id, { name: 'First', tiles: [tile('a')] });
      await send('PUT', dashboard.id, { name: 'Second', tiles: [] });
      expect((await send('GET', dashboard.id)).json.data).toEqual({
        id: dashboard.id,
        name: 'Second',
        tiles: [],
        tags: ['prod'],
      });
    });

    it('answers 400 for a duplicate tile id and changes nothing', async () => {
      const dashboard = seed();
      const id = dashboard.tiles[0].id;
      const response = await send('PUT', dashboard.id, {
        name: 'x',
        tiles: [tile('a', { id }), tile('b', { id })],
      });
      expect(response.status).toBe(400);
      expect(response.json).toEqual({
        message: `Body validation failed: tiles: Duplicate tile ID: ${id}. Omit the ID to generate a unique one.`,
      });
      expect(simulator.storedDashboard(dashboard.id)).toEqual(dashboard);
    });

    it.each([
      [
        '501 tiles',
        { name: 'x', tiles: Array.from({ length: 501 }, (_, i) => tile(`t${i}`)) },
        'tiles: Array must contain at most 500 element(s)',
      ],
      [
        '51 tags',
        { name: 'x', tiles: [], tags: Array.from({ length: 51 }, (_, i) => `tag${i}`) },
        'tags: Array must contain at most 50 element(s)',
      ],
      [
        'a tag of 33 characters',
        { name: 'x', tiles: [], tags: ['ok', 'a'.repeat(33)] },
        'tags.1: String must contain at most 32 character(s)',
      ],
      ['a missing name and tiles', {}, 'name: Required; tiles: Required'],
      ['a name that is not a string', { name: 3, tiles: [] }, 'name: Expected string, received number'],
      ['tiles that are not an array', { name: 'x', tiles: {} }, 'tiles: Expected array, received object'],
      [
        'a tile with bad coordinates',
        { name: 'x', tiles: [tile('t', { x: '1', h: undefined })] },
        'tiles.0.x: Expected number, received string; tiles.0.h: Required',
      ],
      [
        'a tile id over 36 characters',
        { name: 'x', tiles: [tile('t', { id: 'i'.repeat(37) })] },
        'tiles.0.id: String must contain at most 36 character(s)',
      ],
      [
        'a series without a type',
        { name: 'x', tiles: [tile('t', { series: [{ aggFn: 'count' }] })] },
        'tiles.0.series.0.type: Required',
      ],
      ['a body that is an array', [], 'Expected object, received array'],
    ])('answers 400 for %s', async (_case, body, issues) => {
      const dashboard = seed();
      const response = await send('PUT', dashboard.id, body);
      expect(response.status).toBe(400);
      expect(response.json).toEqual({ message: `Body validation failed: ${issues}` });
      expect(simulator.storedDashboard(dashboard.id)).toEqual(dashboard);
    });

    it('accepts 500 tiles and 50 tags of 32 characters', async () => {
      const dashboard = seed();
      const response = await send('PUT', dashboard.id, {
        name: 'Big',
        tiles: Array.from({ length: 500 }, (_, i) => tile(`t${i}`)),
        tags: Array.from({ length: 50 }, (_, i) => `${i}`.padStart(32, 'x')),
      });
      expect(response.status).toBe(200);
      expect(response.json.data.tiles).toHaveLength(500);
      expect(response.json.data.tags).toHaveLength(50);
    });

    it('reports body and id problems together', async () => {
      const response = await send('PUT', 'nope', { tiles: [] });
      expect(response.status).toBe(400);
      expect(response.json).toEqual({
        message: 'Body validation failed: name: Required; Params validation failed: id: Invalid ObjectId',
      });
    });

    it('answers 400 for malformed JSON and a plain-text 404 for an unknown dashboard', async () => {
      const malformed = await send('PUT', UNKNOWN_ID, undefined, { rawBody: '{"name":' });
      expect(malformed.status).toBe(400);
      expect(malformed.json.message).toMatch(/^Malformed JSON body/);
      const unknown = await send('PUT', UNKNOWN_ID, { name: 'x', tiles: [] });
      expect(unknown.status).toBe(404);
      expect(unknown.text).toBe('Not Found');
    });

    it('answers a plain-text 404 for other paths and methods', async () => {
      const dashboard = seed();
      expect((await send('PATCH', dashboard.id)).status).toBe(404);
      expect((await call(`${simulator.url}/api/v2/dashboards/${dashboard.id}/tiles`)).text).toBe(
        `Cannot GET /api/v2/dashboards/${dashboard.id}/tiles`,
      );
    });
  });

  describe('list, create and delete', () => {
    const listUrl = () => `${simulator.url}/api/v2/dashboards`;
    const auth = { authorization: `Bearer ${TOKEN}` };

    it('lists every dashboard', async () => {
      const first = seed();
      const second = simulator.seedDashboard({ name: 'Other', tiles: [] });
      const response = await call(listUrl(), { headers: auth });
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ data: [first, second] });
      expect((await call(listUrl())).status).toBe(401);
    });

    it('creates a dashboard with new ids for it and its tiles', async () => {
      const response = await call(listUrl(), {
        method: 'POST',
        headers: auth,
        body: { name: 'New', tiles: [tile('a', { id: 'mine' })], tags: ['t'], savedQuery: 'x' },
      });
      expect(response.status).toBe(200);
      const created = response.json.data;
      expect(created).toMatchObject({ name: 'New', tags: ['t'], savedQuery: 'x' });
      expect(created.id).toMatch(OBJECT_ID);
      expect(created.tiles[0].id).toMatch(OBJECT_ID);
      expect(simulator.storedDashboard(created.id)).toEqual(created);
      const invalid = await call(listUrl(), { method: 'POST', headers: auth, body: { tiles: [] } });
      expect(invalid.json).toEqual({ message: 'Body validation failed: name: Required' });
    });

    it('deletes a dashboard, after which it is not found', async () => {
      const dashboard = seed();
      const deleted = await send('DELETE', dashboard.id);
      expect(deleted.status).toBe(204);
      expect(simulator.storedDashboard(dashboard.id)).toBeUndefined();
      expect((await send('DELETE', dashboard.id)).status).toBe(404);
      expect((await send('GET', dashboard.id)).text).toBe('Not Found');
    });
  });

  it('echoes the token in the dashboard when a fault asks it to', async () => {
    const dashboard = seed();
    simulator.faults.add({ kind: 'echoSecrets', method: 'GET', times: 1 });
    expect((await send('GET', dashboard.id)).json.data.authorization).toBe(`Bearer ${TOKEN}`);
    expect((await send('GET', dashboard.id)).json.data.authorization).toBeUndefined();
  });

  it('forgets dashboards on reset', async () => {
    const dashboard = seed();
    simulator.reset();
    expect(simulator.storedDashboard(dashboard.id)).toBeUndefined();
    expect((await send('GET', dashboard.id)).status).toBe(404);
  });
});

describe('dashboards simulator rate limit', () => {
  let simulator: DashboardsSimulator;
  let clock = 0;
  const get = (authorization?: string) =>
    call(`${simulator.url}/api/v2/dashboards/${UNKNOWN_ID}`, {
      headers: authorization ? { authorization } : {},
    });

  beforeAll(async () => {
    simulator = await startDashboardsSimulator({
      tokens: [TOKEN, 'token-b'],
      rateLimit: { limit: 2, windowMs: 60_000 },
      now: () => clock,
    });
  });

  afterAll(async () => {
    await simulator.close();
  });

  it('counts calls per presented token, bad tokens too, and answers 429 with Retry-After', async () => {
    const first = await get(`Bearer ${TOKEN}`);
    expect(first.status).toBe(404);
    expect(first.headers.get('ratelimit-limit')).toBe('2');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect(first.headers.get('ratelimit-reset')).toBe('60');
    expect((await get(`Bearer ${TOKEN}`)).headers.get('ratelimit-remaining')).toBe('0');

    const limited = await get(`Bearer ${TOKEN}`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('ratelimit-limit')).toBe('2');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.text).toBe('Too many requests, please try again later.');

    expect((await get('Bearer token-b')).status).toBe(404);
    expect((await get('Bearer wrong')).status).toBe(401);
    expect((await get('Bearer wrong')).status).toBe(401);
    expect((await get('Bearer wrong')).status).toBe(429);

    clock += 60_000;
    expect((await get(`Bearer ${TOKEN}`)).status).toBe(404);
  });
});
