/**
 * Plants a canary in every secret the gateway takes (credentials of both kinds, created and rotated;
 * pipe specs of every source kind, created and updated, with the secret also inside an Azure
 * connection string and a URL's user-info), drives every route while the upstreams behave, echo the
 * secrets back and quote them in errors, then searches every place a secret could end up, the
 * spans a tracing gateway exports included. Then has the upstreams quote values of the tenant's
 * vault and stored credentials that no call sent, in every kind of answer.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { FaultSpec } from '../../sandbox';
import { validDashboardBody } from '../fixtures/dashboard-bodies';
import { PrismaService } from '../../src/database/prisma.service';
import {
  realShapedCreateBodies,
  realShapedUpdateBodies,
  validCreateBody,
  validUpdateBody,
} from '../fixtures/pipe-bodies';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { OtlpReceiver, SPAN_KIND } from '../support/otlp-receiver';
import {
  canaryOf,
  startUpstreamWorld,
  startUpstreamWorldWith,
  type UpstreamWorld,
  type WorldGateway,
} from '../support/upstreams';
import { bearer, createTenant } from '../support/fixtures';
import { startGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/gateway';
import { describeWithPostgres } from '../support/skip';
import { json, ProbeClient, type Probe, type ProbeResponse } from './http-probe';
import { authorizedCaller, pathOf, prepareContext, ROUTES, routeName } from './route-catalog';

const KINDS = ['kafka', 'objectStorage', 'kinesis', 'postgres'] as const;
type Kind = (typeof KINDS)[number];

/** A create body whose every secret is the canary, in connection strings and URLs too. */
function createBody(kind: Kind, canary: string, variant: 'account key' | 'SAS'): Record<string, any> {
  const body = validCreateBody(kind, { secret: canary }) as Record<string, any>;
  if (kind === 'objectStorage') {
    body.source.objectStorage.url = `https://reader:${canary}@example-events.s3.eu-west-1.amazonaws.com/events/*.json`;
    if (variant === 'SAS') {
      body.source.objectStorage.connectionString = `BlobEndpoint=https://examplestore.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&sig=${canary}`;
    }
  }
  if (kind === 'kafka') {
    body.source.kafka.schemaRegistry.url = `https://registry-reader:${canary}@schema-registry.example.com:8081`;
  }
  return body;
}

/** How the upstreams behave during one pass over every route. */
const PHASES: [string, (world: UpstreamWorld<WorldGateway>, canary: string) => void][] = [
  ['plain upstreams', () => undefined],
  [
    'upstreams echoing the secrets they were sent',
    (world) => {
      world.pipes.faults.add({ kind: 'echoSecrets' });
      world.dashboards.faults.add({ kind: 'echoSecrets' });
    },
  ],
  [
    'upstream errors quoting the secrets in fields, URLs and connection strings',
    (world, canary) => {
      world.pipes.faults.add({
        kind: 'status',
        status: 400,
        body: {
          status: 400,
          error: `cannot reach postgres://svc:${canary}@db:5432/shop; AccountKey=${canary};`,
          requestId: 'upstream-error',
          source: { kafka: { credentials: { username: 'u', password: canary } } },
        },
      });
      world.dashboards.faults.add({
        kind: 'status',
        status: 409,
        body: { message: 'conflict', token: canary },
      });
    },
  ],
];

/** A call through a probe client, kept under a label. */
type Call = (label: string, probe: Probe) => Promise<ProbeResponse>;

/**
 * Every route that takes a secret, given the canary: credentials of both kinds stored and rotated
 * (and one refused), pipes of every kind created (and one refused) and updated. `pipeIds` keeps the
 * latest pipe of each kind, for the updates.
 */
async function plantCanary(
  world: UpstreamWorld<WorldGateway>,
  canary: string,
  call: Call,
  label: (what: string) => string,
  pipeIds: Partial<Record<Kind, string>>,
): Promise<void> {
  const { keys } = world.tenant;
  const pipes = `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes`;
  const admin = bearer(keys.admin);
  await call(label('store a pipes credential'), {
    method: 'POST',
    path: '/v1/credentials',
    headers: admin,
    body: json({
      kind: 'pipes',
      name: 'swept',
      organizationId: randomUUID(),
      keyId: 'KEYID-sweep',
      keySecret: `${canary}-stored`,
    }),
  });
  await call(label('store a dashboards credential'), {
    method: 'POST',
    path: '/v1/credentials',
    headers: admin,
    body: json({ kind: 'dashboards', name: 'swept', token: `${canary}-stored`, isDefault: false }),
  });
  await call(label('rotate the dashboards credential in use, to the same token'), {
    method: 'POST',
    path: `/v1/credentials/${world.dashboardsCredentialId}/rotate`,
    headers: admin,
    body: json({ token: world.dashboardsToken }),
  });
  await call(label('refuse a credential naming a field of the other kind'), {
    method: 'POST',
    path: '/v1/credentials',
    headers: admin,
    body: json({ kind: 'dashboards', name: 'x', token: `${canary}-t`, keySecret: `${canary}-k` }),
  });
  for (const kind of KINDS) {
    for (const variant of ['account key', 'SAS'] as const) {
      const created = await call(label(`create a ${kind} pipe (${variant})`), {
        method: 'POST',
        path: pipes,
        headers: bearer(keys.operator),
        body: json(createBody(kind, canary, variant)),
      });
      if (created.status === 200) pipeIds[kind] = JSON.parse(created.text).result.id as string;
    }
    await call(label(`refuse a ${kind} pipe with an unknown field`), {
      method: 'POST',
      path: pipes,
      headers: bearer(keys.operator),
      body: json({ ...createBody(kind, canary, 'account key'), surprise: canary }),
    });
    const pipeId = pipeIds[kind]!;
    // Table mappings of a postgres pipe change only while it is paused.
    if (kind === 'postgres') world.pipes.setPipeState(pipeId, 'Paused');
    await call(label(`update the ${kind} pipe`), {
      method: 'PATCH',
      path: `${pipes}/${pipeId}`,
      headers: bearer(keys.operator),
      body: json(validUpdateBody(kind, { secret: canary })),
    });
    await call(label(`read the ${kind} pipe's settings`), {
      method: 'GET',
      path: `${pipes}/${pipeId}/settings`,
      headers: bearer(keys.viewer),
    });
  }
  // Every source kind, authentication and credential form of the real service, created and updated.
  const created = new Map<string, string>();
  for (const { name, body } of realShapedCreateBodies(canary)) {
    const response = await call(label(`create a real-shaped pipe: ${name}`), {
      method: 'POST',
      path: pipes,
      headers: bearer(keys.operator),
      body: json(body),
    });
    const kind = Object.keys(body.source)[0];
    if (response.status === 200) created.set(kind, JSON.parse(response.text).result.id as string);
  }
  for (const { name, kind, body } of realShapedUpdateBodies(canary)) {
    await call(label(`update a real-shaped pipe: ${name}`), {
      method: 'PATCH',
      path: `${pipes}/${created.get(kind)}`,
      headers: bearer(keys.operator),
      body: json(body),
    });
  }
}

/**
 * The sweep: for each of PHASES, the upstreams arranged, the canary planted in every secret the
 * gateway takes, then every route of the catalogue called.
 */
async function driveEveryRoute(
  world: UpstreamWorld<WorldGateway>,
  canary: string,
  call: Call,
): Promise<void> {
  const ctx = await prepareContext(world, canary);
  const pipeIds: Partial<Record<Kind, string>> = {};
  for (const [phase, arrange] of PHASES) {
    world.pipes.faults.clear();
    world.dashboards.faults.clear();
    arrange(world, canary);
    await plantCanary(world, canary, call, (what) => `${phase}: ${what}`, pipeIds);
    for (const route of ROUTES) {
      await call(`${phase}: ${routeName(route)}`, {
        method: route.method,
        path: pathOf(route, ctx),
        headers: authorizedCaller(route, world.tenant),
        body: route.body ? json(route.body(ctx)) : undefined,
      });
    }
  }
  world.pipes.faults.clear();
  world.dashboards.faults.clear();
}

describe('canary sweep (e2e)', () => {
  let world: UpstreamWorld;
  let canary: string;
  let forbidden: string[];
  let client: ProbeClient;
  let prisma: PrismaService;
  const seen: { label: string; response: ProbeResponse }[] = [];

  async function call(label: string, probe: Probe): Promise<ProbeResponse> {
    const response = await client.send(probe);
    seen.push({ label, response });
    return response;
  }

  beforeAll(async () => {
    world = await startUpstreamWorld();
    canary = canaryOf(world);
    const basic = Buffer.from(`${world.pipesKey.keyId}:${world.pipesKey.keySecret}`).toString('base64');
    forbidden = [canary, basic];
    client = new ProbeClient(world.gateway.url);
    prisma = world.gateway.app.get(PrismaService);
    await driveEveryRoute(world, canary, call);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await world?.close();
  });

  /** Text of every row of `sql`: byte columns as escaped text, so plain ASCII in them shows. */
  async function rowsText(sql: string): Promise<string> {
    const rows = await prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql);
    return JSON.stringify(rows, (_key, value: unknown) => {
      if (typeof value === 'bigint') return value.toString();
      if (value instanceof Uint8Array) return Buffer.from(value).toString('latin1');
      if (isSerialisedBuffer(value)) return Buffer.from(value.data).toString('latin1');
      return value;
    });
  }

  async function allPages(path: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const { body }: { body: { items: Record<string, unknown>[]; nextCursor: string | null } } =
        await world.gateway.http
          .get(path)
          .query({ limit: '200', ...(cursor ? { cursor } : {}) })
          .set(bearer(world.tenant.keys.auditor))
          .expect(200);
      items.push(...body.items);
      cursor = body.nextCursor;
    } while (cursor !== null);
    return items;
  }

  it('planted the canary: the upstreams received it and echoed it back', () => {
    expect(JSON.stringify(world.pipes.requests())).toContain(canary);
    expect(JSON.stringify(world.dashboards.requests())).toContain(canary);
    const scrubbed = seen.filter(
      ({ response }) => response.status < 300 && response.text.includes('[redacted]'),
    );
    expect(scrubbed.length).toBeGreaterThan(0);
  });

  const PLACES: [string, () => string | Promise<string>][] = [
    [
      'every response body and header',
      () =>
        seen
          .map(({ label, response }) => `${label}\n${JSON.stringify(response.headers)}\n${response.text}`)
          .join('\n'),
    ],
    ['every log line', () => world.gateway.logs.text()],
    [
      'the history, through the API',
      async () => {
        const items = await allPages('/v1/history/pipe-specs');
        const each = await Promise.all(
          items.map((item) =>
            world.gateway.http
              .get(`/v1/history/pipe-specs/${String(item.id)}`)
              .set(bearer(world.tenant.keys.auditor)),
          ),
        );
        return JSON.stringify([items, each.map((response) => response.text)]);
      },
    ],
    ['the history, in the database', () => rowsText('SELECT * FROM pipe_spec_records')],
    [
      'the audit log, through the API',
      async () => {
        const exported = await world.gateway.http
          .get('/v1/audit/export')
          .set(bearer(world.tenant.keys.auditor))
          .expect(200);
        return JSON.stringify(await allPages('/v1/audit')) + exported.text;
      },
    ],
    ['the audit log, in the database', () => rowsText('SELECT * FROM audit_events')],
    [
      'every column of every table but the credential ciphertext',
      async () => {
        const columns = await prisma.$queryRawUnsafe<
          { table_name: string; column_name: string; data_type: string }[]
        >(
          `SELECT table_name, column_name, data_type FROM information_schema.columns
           WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
        );
        const tables = new Map<string, string[]>();
        for (const { table_name: table, column_name: column, data_type: type } of columns) {
          if (table === 'credentials' && column === 'ciphertext') continue;
          const text = type === 'bytea' ? `encode("${column}", 'escape')` : `"${column}"::text`;
          tables.set(table, [...(tables.get(table) ?? []), `${text} AS "${column}"`]);
        }
        expect([...tables.keys()]).toEqual(
          expect.arrayContaining([
            'credentials',
            'gateway_keys',
            'pipe_spec_records',
            'audit_events',
            'dashboard_versions',
          ]),
        );
        const texts = await Promise.all(
          [...tables].map(
            async ([table, selected]) =>
              `${table}: ${await rowsText(`SELECT ${selected.join(', ')} FROM "${table}"`)}`,
          ),
        );
        return texts.join('\n');
      },
    ],
    [
      'the OpenAPI document and the docs page',
      async () => {
        const document = await world.gateway.http.get('/docs-json').expect(200);
        const page = await world.gateway.http.get('/docs').expect(200);
        return document.text + page.text;
      },
    ],
    ['the metrics', async () => (await world.gateway.http.get('/metrics').expect(200)).text],
  ];

  it.each(PLACES)('keeps the canary out of %s', async (_place, read) => {
    expectAbsent(await read(), forbidden);
  });

  it('keeps secrets that an upstream error quotes verbatim out of the answer and the history', async () => {
    // A secret of its own, so that the places above stay clean whatever runs first.
    const quoted = `QUOTED${randomUUID().replace(/-/g, '')}`;
    world.pipes.faults.add({
      kind: 'status',
      status: 400,
      times: 1,
      body: {
        status: 400,
        error: `kafka authentication failed: password ${quoted} rejected (key ${world.pipesKey.keySecret})`,
        requestId: randomUUID(),
      },
    });
    const response = await client.send({
      method: 'POST',
      path: `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes`,
      headers: bearer(world.tenant.keys.operator),
      body: json(createBody('kafka', quoted, 'account key')),
    });
    expect(response.status).toBe(400);
    expectAbsent(response.text + JSON.stringify(await allPages('/v1/history/pipe-specs')), [
      quoted,
      world.pipesKey.keySecret,
    ]);
    expect(response.text).toContain('password [redacted] rejected (key [redacted])');
  });
});

/**
 * The same sweep through a gateway that traces, a process of its own started as `npm start` starts
 * it (the SDK instruments before anything loads), its spans exported over OTLP to a receiver here:
 * no planted secret in any span or attribute it exported.
 */
describe('canary sweep of exported spans (e2e)', () => {
  let receiver: OtlpReceiver;
  let world: UpstreamWorld<GatewayProcess>;
  let client: ProbeClient;
  let canary: string;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    world = await startUpstreamWorldWith(startGatewayProcess, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    canary = canaryOf(world);
    client = new ProbeClient(world.gateway.url);
    await driveEveryRoute(world, canary, (_label, probe) => client.send(probe));
    // A stop exports the spans still held.
    await world.gateway.close();
  }, 300_000);
  afterAll(async () => {
    await client?.close();
    await world?.close();
    await receiver?.close();
  });

  it('planted the canary: the upstreams received it, and the spans of those calls were exported', () => {
    expect(JSON.stringify(world.pipes.requests())).toContain(canary);
    expect(receiver.spans().filter((span) => span.kind === SPAN_KIND.client).length).toBeGreaterThan(50);
  });

  it("keeps the canary, the upstream credentials and the callers' keys out of every exported span", () => {
    const basic = Buffer.from(`${world.pipesKey.keyId}:${world.pipesKey.keySecret}`).toString('base64');
    const exported = receiver.exports.map((each) => `${each.raw}\n${JSON.stringify(each.spans)}`).join('\n');
    expectAbsent(exported, [canary, basic, TEST_ADMIN_TOKEN, ...Object.values(world.tenant.keys)]);
  });
});

/** Fails naming where in `text` a secret was found. */
function expectAbsent(text: string, secrets: readonly string[]): void {
  for (const secret of secrets) {
    const at = text.indexOf(secret);
    if (at >= 0) throw new Error(`found a planted secret: …${text.slice(Math.max(0, at - 300), at + 100)}…`);
  }
}

function isSerialisedBuffer(value: unknown): value is { type: 'Buffer'; data: number[] } {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Buffer';
}

/** 12 letters and digits: no pattern of the redactor takes it for a secret, only the vault can. */
function opaqueValue(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  return Array.from(randomBytes(12), (byte) => alphabet[byte % alphabet.length]).join('');
}

/**
 * Values of the tenant's vault and of its stored credentials, opaque and quoted by the upstream
 * under plain field names in every kind of answer, are scrubbed from every answer: reads,
 * lifecycle changes and upstream errors alike, not only the answer of the call that sent them.
 */
describe('answers free of the vault and stored credentials (e2e)', () => {
  let world: UpstreamWorld;
  let client: ProbeClient;
  const pipeId = randomUUID();
  const dashboardId = '65f0c0ffee0000000000a11c';
  /** The tenant's stored values, by where each is kept; none of them is used by the calls below. */
  const stored = {
    'a vault secret': opaqueValue(),
    'a field of a vault secret': opaqueValue(),
    "another organization's pipes key secret": opaqueValue(),
    "a dashboards credential's token": opaqueValue(),
  };
  let vaultSecretId: string;
  let otherPipesCredentialId: string;

  const pipes = (suffix = '') =>
    `/organizations/${world.organizationId}/services/${world.serviceId}/pipes${suffix}`;

  /**
   * A call of every kind that answers with upstream data, with the fault that makes the upstream
   * quote `value` under plain field names in its answer.
   */
  const ANSWERS: [string, (value: string) => { probe: Probe; fault: FaultSpec }][] = [
    [
      'a pipe read',
      (value) => ({
        probe: { method: 'GET', path: `/v1${pipes(`/${pipeId}`)}`, headers: viewer() },
        fault: pipesAnswer('GET', `/v1${pipes(`/${pipeId}`)}`, { id: pipeId, name: 'orders', note: value }),
      }),
    ],
    [
      'the pipes list',
      (value) => ({
        probe: { method: 'GET', path: `/v1${pipes()}`, headers: viewer() },
        fault: pipesAnswer('GET', `/v1${pipes()}`, [{ id: pipeId, name: `orders from ${value}` }]),
      }),
    ],
    [
      "a pipe's settings",
      (value) => ({
        probe: { method: 'GET', path: `/v1${pipes(`/${pipeId}/settings`)}`, headers: viewer() },
        fault: pipesAnswer('GET', `/v1${pipes(`/${pipeId}/settings`)}`, { comment: value }),
      }),
    ],
    [
      'a state change',
      (value) => ({
        probe: {
          method: 'PATCH',
          path: `/v1${pipes(`/${pipeId}/state`)}`,
          headers: operator(),
          body: json({ command: 'stop' }),
        },
        fault: pipesAnswer('PATCH', `/v1${pipes(`/${pipeId}/state`)}`, { id: pipeId, state: value }),
      }),
    ],
    [
      'a scaling change',
      (value) => ({
        probe: {
          method: 'PATCH',
          path: `/v1${pipes(`/${pipeId}/scaling`)}`,
          headers: operator(),
          body: json({ replicas: 2, replicaCpuMillicores: 500, replicaMemoryGb: 1 }),
        },
        fault: pipesAnswer('PATCH', `/v1${pipes(`/${pipeId}/scaling`)}`, { replicas: 2, by: value }),
      }),
    ],
    [
      'an update',
      (value) => ({
        probe: {
          method: 'PATCH',
          path: `/v1${pipes(`/${pipeId}`)}`,
          headers: operator(),
          body: json({ name: 'orders renamed' }),
        },
        fault: pipesAnswer('PATCH', `/v1${pipes(`/${pipeId}`)}`, { id: pipeId, [value]: 'a key' }),
      }),
    ],
    [
      'a delete',
      (value) => ({
        probe: { method: 'DELETE', path: `/v1${pipes(`/${pipeId}`)}`, headers: operator() },
        fault: {
          kind: 'status',
          status: 200,
          method: 'DELETE',
          pathPrefix: `/v1${pipes(`/${pipeId}`)}`,
          times: 1,
          body: { status: 200, requestId: randomUUID(), message: `deleted ${value}` },
        },
      }),
    ],
    [
      'a settings replace',
      (value) => ({
        probe: {
          method: 'PUT',
          path: `/v1${pipes(`/${pipeId}/settings`)}`,
          headers: operator(),
          body: json({ clickhouse_max_threads: 8 }),
        },
        fault: pipesAnswer('PUT', `/v1${pipes(`/${pipeId}/settings`)}`, { clickhouse_max_threads: 8, value }),
      }),
    ],
    [
      'a dashboard read',
      (value) => ({
        probe: { method: 'GET', path: `/v1/dashboards/${dashboardId}`, headers: viewer() },
        fault: dashboardsAnswer('GET', `/api/v2/dashboards/${dashboardId}`, {
          id: dashboardId,
          name: value,
          tiles: [],
        }),
      }),
    ],
    [
      'the dashboards list',
      (value) => ({
        probe: { method: 'GET', path: '/v1/dashboards', headers: viewer() },
        fault: dashboardsAnswer('GET', '/api/v2/dashboards', [{ id: dashboardId, name: value, tiles: [] }]),
      }),
    ],
    [
      'a dashboard replace',
      (value) => ({
        probe: {
          method: 'PUT',
          path: `/v1/dashboards/${dashboardId}`,
          headers: operator(),
          body: json(validDashboardBody()),
        },
        fault: dashboardsAnswer('PUT', `/api/v2/dashboards/${dashboardId}`, {
          id: dashboardId,
          name: 'Checkout',
          tiles: [{ id: '65a1b2c3d4e5f60718293a4b', name: value }],
        }),
      }),
    ],
    [
      "a pipes API error, quoted in the problem's upstream.body",
      (value) => ({
        probe: { method: 'GET', path: `/v1${pipes(`/${pipeId}`)}`, headers: viewer() },
        fault: {
          kind: 'status',
          status: 400,
          method: 'GET',
          pathPrefix: `/v1${pipes(`/${pipeId}`)}`,
          times: 1,
          body: { status: 400, requestId: value, error: `pipe ${value} is invalid`, field: value },
        },
      }),
    ],
    [
      'a dashboards API error',
      (value) => ({
        probe: { method: 'GET', path: '/v1/dashboards', headers: viewer() },
        fault: {
          kind: 'status',
          status: 409,
          method: 'GET',
          pathPrefix: '/api/v2/dashboards',
          times: 1,
          body: `no dashboards for ${value}`,
        },
      }),
    ],
  ];

  function pipesAnswer(method: string, path: string, result: unknown): FaultSpec {
    return {
      kind: 'status',
      status: 200,
      method,
      pathPrefix: path,
      times: 1,
      body: { status: 200, requestId: randomUUID(), result },
    };
  }

  function dashboardsAnswer(method: string, path: string, data: unknown): FaultSpec {
    return { kind: 'status', status: 200, method, pathPrefix: path, times: 1, body: { data } };
  }

  const viewer = () => bearer(world.tenant.keys.viewer);
  const operator = () => bearer(world.tenant.keys.operator);
  const admin = () => bearer(world.tenant.keys.admin);

  /** Sends the call with the upstream quoting `value`; the answer, which must not hold it. */
  async function answerQuoting(kind: string, value: string): Promise<ProbeResponse> {
    const { probe, fault } = ANSWERS.find(([name]) => name === kind)![1](value);
    world.pipes.faults.clear();
    world.dashboards.faults.clear();
    (fault.pathPrefix!.startsWith('/api/') ? world.dashboards : world.pipes).faults.add(fault);
    const response = await client.send(probe);
    expect(world.pipes.faults.list().length + world.dashboards.faults.list().length).toBe(0);
    return response;
  }

  async function createCredential(body: object): Promise<string> {
    const response = await world.gateway.http.post('/v1/credentials').set(admin()).send(body).expect(201);
    return response.body.id as string;
  }

  beforeAll(async () => {
    world = await startUpstreamWorld();
    client = new ProbeClient(world.gateway.url);
    const { name, tiles, tags } = validDashboardBody();
    world.dashboards.seedDashboard({ id: dashboardId, name, tiles, tags });
    vaultSecretId = await createCredential({
      kind: 'secret',
      name: 'warehouse-password',
      value: stored['a vault secret'],
    });
    await createCredential({
      kind: 'secret',
      name: 'warehouse-account',
      value: { account: stored['a field of a vault secret'], region: 'eu-west-1' },
    });
    otherPipesCredentialId = await createCredential({
      kind: 'pipes',
      name: 'other organization',
      organizationId: randomUUID(),
      keyId: 'other-key-id',
      keySecret: stored["another organization's pipes key secret"],
    });
    await createCredential({
      kind: 'dashboards',
      name: 'second dashboards',
      token: stored["a dashboards credential's token"],
      isDefault: false,
    });
  });
  afterAll(async () => {
    await client?.close();
    await world?.close();
  });

  const cases = ANSWERS.flatMap(([kind]) => Object.keys(stored).map((held) => [kind, held] as const));

  it.each(cases)('scrubs from %s %s quoted under a plain field name', async (kind, held) => {
    const value = stored[held as keyof typeof stored];
    const response = await answerQuoting(kind, value);
    expect(response.status).toBeLessThan(500);
    expect(response.text).not.toContain(value);
    expect(response.text).toContain('[redacted]');
  });

  it('scrubs the new value of a rotated secret or key at once, and a secret created a moment ago', async () => {
    // Each answer above was scrubbed against the vault as it was then: these change it.
    const rotatedSecret = opaqueValue();
    await world.gateway.http
      .post(`/v1/credentials/${vaultSecretId}/rotate`)
      .set(admin())
      .send({ value: rotatedSecret })
      .expect(200);
    expect((await answerQuoting('a pipe read', rotatedSecret)).text).not.toContain(rotatedSecret);
    expect((await answerQuoting('the dashboards list', rotatedSecret)).text).not.toContain(rotatedSecret);

    const rotatedKey = opaqueValue();
    await world.gateway.http
      .post(`/v1/credentials/${otherPipesCredentialId}/rotate`)
      .set(admin())
      .send({ keySecret: rotatedKey })
      .expect(200);
    expect((await answerQuoting('a dashboard read', rotatedKey)).text).not.toContain(rotatedKey);

    const created = opaqueValue();
    await createCredential({ kind: 'secret', name: 'created-late', value: created });
    const answer = await answerQuoting("a pipe's settings", created);
    expect(answer.text).not.toContain(created);
    expect(answer.text).toContain('[redacted]');
  });

  it.each(['a dashboard read', 'the dashboards list'])(
    'sends no answer kept from %s before a value became a secret',
    async (kind) => {
      // Both are kept as JSON and sent again when the upstream answers the same text.
      const value = opaqueValue();
      expect((await answerQuoting(kind, value)).text).toContain(value);
      expect((await answerQuoting(kind, value)).text).toContain(value);
      await createCredential({ kind: 'secret', name: `became-secret-${value}`, value });
      const again = await answerQuoting(kind, value);
      expect(again.text).not.toContain(value);
      expect(again.text).toContain('[redacted]');
    },
  );

  it('leaves values shorter than 8 characters and values of other tenants alone', async () => {
    const short = 'Qz7Kp2V';
    await createCredential({ kind: 'secret', name: 'short-one', value: short });
    const other = await createTenant(world.gateway);
    const elsewhere = opaqueValue();
    await world.gateway.http
      .post('/v1/credentials')
      .set(bearer(other.keys.admin))
      .send({ kind: 'secret', name: 'theirs', value: elsewhere })
      .expect(201);
    expect((await answerQuoting('a pipe read', short)).text).toContain(short);
    expect((await answerQuoting('a pipe read', elsewhere)).text).toContain(elsewhere);
  });
});

describeWithPostgres('answers of another replica after a rotation (e2e)', () => {
  let world: UpstreamWorld;
  // A second gateway on the same database and upstreams, as another replica would be.
  let other: TestGateway;
  const pipeId = randomUUID();

  beforeAll(async () => {
    world = await startUpstreamWorld();
    other = await startGateway({
      PIPES_API_URL: world.pipes.url,
      DASHBOARDS_API_URL: world.dashboards.url,
      UPSTREAM_TIMEOUT_MS: '2000',
    });
  });
  afterAll(async () => {
    await other?.close();
    await world?.close();
  });

  /** A pipe read through the other replica, the upstream quoting `value`. */
  async function readQuoting(value: string): Promise<string> {
    const path = `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes/${pipeId}`;
    world.pipes.faults.add({
      kind: 'status',
      status: 200,
      method: 'GET',
      pathPrefix: path,
      times: 1,
      body: { status: 200, requestId: randomUUID(), result: { id: pipeId, note: value } },
    });
    const response = await other.http.get(path).set(bearer(world.tenant.keys.viewer)).expect(200);
    return response.text;
  }

  it('scrubs a secret rotated on one replica from the answers of another within 10 s', async () => {
    const secret = await world.gateway.http
      .post('/v1/credentials')
      .set(bearer(world.tenant.keys.admin))
      .send({ kind: 'secret', name: 'rotated-elsewhere', value: opaqueValue() })
      .expect(201);
    const rotated = opaqueValue();
    // The other replica has built its matcher before the rotation.
    expect(await readQuoting(rotated)).toContain(rotated);
    await world.gateway.http
      .post(`/v1/credentials/${secret.body.id as string}/rotate`)
      .set(bearer(world.tenant.keys.admin))
      .send({ value: rotated })
      .expect(200);
    const rotatedAt = Date.now();
    while ((await readQuoting(rotated)).includes(rotated)) {
      // The promise is 10 s; the margin is for a busy machine.
      expect(Date.now() - rotatedAt).toBeLessThan(15_000);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await readQuoting(rotated)).toContain('[redacted]');
  }, 30_000);
});
