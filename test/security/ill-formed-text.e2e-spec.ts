/**
 * Text that is not well-formed UTF-16 (a lone surrogate) can be neither stored by Postgres (jsonb
 * refuses it) nor by an upstream. Every input that could carry one is refused with a 400 naming
 * where, before any work; content that arrives from an upstream already holding one is stored
 * with U+FFFD in its place, so it can never block a later write.
 */
import { request as httpRequest } from 'node:http';
import { validDashboardBody } from '../fixtures/dashboard-bodies';
import { PrismaService } from '../../src/database/prisma.service';
import { bearer } from '../support/fixtures';
import { canaryOf, startUpstreamWorld, type UpstreamWorld } from '../support/upstreams';
import {
  authorizedCaller,
  pathOf,
  prepareContext,
  ROUTES,
  routeName,
  type RouteContext,
  type RouteSpec,
} from './route-catalog';

const LONE = 'name-\ud800-end';
const MESSAGE = /^must be well-formed Unicode text: it holds a lone surrogate/;

/**
 * A copy of `body` with its first string (depth first) made ill-formed, and that string's path; a
 * body of numbers and flags only gets a field whose value is such a string.
 */
function poisonFirstString(body: object): { body: object; path: string } {
  const copy = structuredClone(body) as Record<string, unknown>;
  const visit = (value: Record<string, unknown> | unknown[], path: string): string | null => {
    for (const [key, child] of Object.entries(value)) {
      const childPath = Array.isArray(value) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
      if (typeof child === 'string') {
        (value as Record<string, unknown>)[key] = `${child}\ud800`;
        return childPath;
      }
      if (child !== null && typeof child === 'object') {
        const found = visit(child as Record<string, unknown>, childPath);
        if (found !== null) return found;
      }
    }
    return null;
  };
  const path = visit(copy, '');
  if (path !== null) return { body: copy, path };
  return { body: { ...copy, note: LONE }, path: 'note' };
}

describe('ill-formed text in input (e2e)', () => {
  let world: UpstreamWorld;
  let ctx: RouteContext;
  let prisma: PrismaService;

  beforeAll(async () => {
    world = await startUpstreamWorld();
    ctx = await prepareContext(world, canaryOf(world));
    prisma = world.gateway.app.get(PrismaService);
  }, 60_000);
  afterAll(() => world?.close());

  const upstreamCalls = () => world.pipes.requests().length + world.dashboards.requests().length;
  const send = (route: RouteSpec, body: object | string) =>
    world.gateway.http[route.method.toLowerCase() as 'post' | 'put' | 'patch'](pathOf(route, ctx))
      .set(authorizedCaller(route, world.tenant))
      .set('content-type', 'application/json')
      .send(body);

  it.each(ROUTES.filter((route) => route.body).map((route) => [routeName(route), route] as const))(
    '%s refuses a lone surrogate, naming the field, before any work',
    async (_name, route) => {
      const { body, path } = poisonFirstString(route.body!(ctx));
      const before = upstreamCalls();
      const response = await send(route, body);
      expect(response.status).toBe(400);
      expect(response.body.type).toMatch(/validation-failed$/);
      expect(response.body.errors).toEqual([{ path, message: expect.stringMatching(MESSAGE) }]);
      expect(upstreamCalls()).toBe(before);
    },
  );

  async function rowCounts() {
    const tenantId = world.tenant.id;
    return {
      credentials: await prisma.credential.count({ where: { tenantId } }),
      history: await prisma.pipeSpecRecord.count({ where: { tenantId } }),
      versions: await prisma.dashboardVersion.count({ where: { tenantId } }),
      audit: await prisma.auditEvent.count({ where: { tenantId } }),
    };
  }

  it('writes nothing for a credential create, a pipe create or a dashboard replace that holds one', async () => {
    const route = (method: string, template: string) =>
      ROUTES.find((candidate) => candidate.method === method && candidate.template === template)!;
    const credentialCreate = route('POST', '/v1/credentials');
    const pipeCreate = route('POST', '/v1/organizations/{organizationId}/services/{serviceId}/pipes');
    const dashboardPut = route('PUT', '/v1/dashboards/{id}');
    const before = await rowCounts();
    const calls = upstreamCalls();

    const answers = [
      await send(credentialCreate, { ...credentialCreate.body!(ctx), name: LONE }),
      await send(pipeCreate, { ...pipeCreate.body!(ctx), name: LONE }),
      // Escapes as a client would write them, upper case included; the key names the field.
      await send(dashboardPut, JSON.stringify(dashboardPut.body!(ctx)).replace('{', '{"x\\uDBFF":1,')),
      await send(dashboardPut, {
        ...dashboardPut.body!(ctx),
        tiles: [{ ...validDashboardBody().tiles[0], series: [{ type: 'time', where: '\udc00' }] }],
      }),
    ];
    expect(answers.map((answer) => [answer.status, answer.body.errors])).toEqual([
      [400, [{ path: 'name', message: expect.stringMatching(MESSAGE) }]],
      [400, [{ path: 'name', message: expect.stringMatching(MESSAGE) }]],
      [
        400,
        [{ path: 'x\ufffd', message: expect.stringMatching(/^is a field name that must be well-formed/) }],
      ],
      [400, [{ path: 'tiles[0].series[0].where', message: expect.stringMatching(MESSAGE) }]],
    ]);
    expect(await rowCounts()).toEqual(before);
    expect(upstreamCalls()).toBe(calls);
  });

  it('takes well-formed text, surrogate pairs written as escapes included', async () => {
    const dashboard = world.dashboards.seedDashboard({ name: 'pairs' });
    const response = await world.gateway.http
      .put(`/v1/dashboards/${dashboard.id}`)
      .set(bearer(world.tenant.keys.operator))
      .set('content-type', 'application/json')
      .send('{"name":"clef \\ud834\\udd1e","tiles":[],"tags":[]}')
      .expect(200);
    expect(response.body.data.name).toBe('clef \u{1d11e}');
  });

  it('refuses a query value whose percent-escapes are not UTF-8, naming the parameter', async () => {
    for (const raw of ['actor=%ED%A0%80', 'actor=%uD800', 'actor=100%']) {
      const response = await world.gateway.http
        .get(`/v1/audit?${raw}`)
        .set(bearer(world.tenant.keys.auditor));
      expect({ raw, status: response.status, errors: response.body.errors }).toEqual({
        raw,
        status: 400,
        errors: [{ path: 'actor', message: expect.stringMatching(/percent-escape/) }],
      });
    }
    // An encoded supplementary character is well-formed.
    await world.gateway.http
      .get('/v1/audit?actor=%F0%9F%98%80')
      .set(bearer(world.tenant.keys.auditor))
      .expect(200);
  });

  it('refuses a path segment whose percent-escapes are not UTF-8', async () => {
    const response = await world.gateway.http
      .get('/v1/dashboards/%ED%A0%80')
      .set(bearer(world.tenant.keys.viewer))
      .expect(400);
    expect(response.body.detail).toMatch(/percent-escape/);
  });

  it('refuses an X-On-Behalf-Of whose bytes encode a surrogate', async () => {
    const dashboard = world.dashboards.seedDashboard({ name: 'on behalf' });
    // Node reads header bytes one by one (ISO-8859-1), so no header can decode to a lone surrogate;
    // the UTF-8 form of one (ED A0 80) is not UTF-8 and is refused as control characters.
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${world.gateway.url}/v1/dashboards/${dashboard.id}`);
      const call = httpRequest(
        url,
        {
          method: 'GET',
          headers: {
            authorization: `Bearer ${world.tenant.keys.viewer}`,
            'x-on-behalf-of': Buffer.from([0x61, 0xed, 0xa0, 0x80]).toString('latin1'),
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      call.on('error', reject);
      call.end();
    });
    expect(status).toBe(400);
  });

  it('keeps a dashboard that holds a lone surrogate upstream editable through the gateway', async () => {
    // Edited in the dashboards service's own interface, which stores whatever it was given.
    const [tile] = validDashboardBody().tiles;
    const poisoned = world.dashboards.seedDashboard({
      name: 'poisoned',
      tiles: [{ ...tile, name: 'bad \ud800 tile' }],
    });
    const operator = bearer(world.tenant.keys.operator);
    const viewer = bearer(world.tenant.keys.viewer);
    const path = `/v1/dashboards/${poisoned.id}`;
    const read = await world.gateway.http.get(path).set(viewer).expect(200);
    await world.gateway.http
      .put(path)
      .set(operator)
      .set('if-match', read.headers.etag)
      .send({ name: 'first replace', tiles: [], tags: [] })
      .expect(200);
    await world.gateway.http
      .put(path)
      .set(operator)
      .send({ name: 'second replace', tiles: [], tags: [] })
      .expect(200);
    expect(world.dashboards.storedDashboard(poisoned.id)?.name).toBe('second replace');

    // The version kept holds U+FFFD where the surrogate was, and restores.
    const version = await world.gateway.http.get(`${path}/versions/1`).set(viewer).expect(200);
    expect(version.body.data.tiles[0].name).toBe('bad \ufffd tile');
    await world.gateway.http.post(`${path}/versions/1/restore`).set(operator).expect(200);
    expect(world.dashboards.storedDashboard(poisoned.id)?.tiles[0].name).toBe('bad \ufffd tile');
    const verify = await world.gateway.http
      .get('/v1/audit/verify')
      .set(bearer(world.tenant.keys.auditor))
      .expect(200);
    expect(verify.body.ok).toBe(true);
  });
});
