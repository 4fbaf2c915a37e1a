/**
 * Plants a canary in every secret the gateway takes (credentials of both kinds, created and rotated;
 * pipe specs of every source kind, created and updated, with the secret also inside an Azure
 * connection string and a URL's user-info), drives every route while the upstreams behave, echo the
 * secrets back and quote them in errors, then searches every place a secret could end up.
 */
import { randomUUID } from 'node:crypto';
import { PrismaService } from '../../src/database/prisma.service';
import {
  realShapedCreateBodies,
  realShapedUpdateBodies,
  validCreateBody,
  validUpdateBody,
} from '../../src/pipes/schema/test-support/pipe-bodies';
import { canaryOf, startUpstreamWorld, type UpstreamWorld } from '../support/upstreams';
import { bearer } from '../support/fixtures';
import { json, ProbeClient, type Probe, type ProbeResponse } from './http-probe';
import {
  authorizedCaller,
  pathOf,
  prepareContext,
  ROUTES,
  routeName,
  type RouteContext,
} from './route-catalog';

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
const PHASES: [string, (world: UpstreamWorld, canary: string) => void][] = [
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

describe('canary sweep (e2e)', () => {
  let world: UpstreamWorld;
  let canary: string;
  let forbidden: string[];
  let ctx: RouteContext;
  let client: ProbeClient;
  let prisma: PrismaService;
  const seen: { label: string; response: ProbeResponse }[] = [];

  async function call(label: string, probe: Probe): Promise<ProbeResponse> {
    const response = await client.send(probe);
    seen.push({ label, response });
    return response;
  }

  /**
   * Every route that takes a secret, given the canary: credentials of both kinds stored and rotated
   * (and one refused), pipes of every kind created (and one refused) and updated. `pipeIds` keeps the
   * latest pipe of each kind, for the updates.
   */
  async function plantCanary(label: (what: string) => string, pipeIds: Partial<Record<Kind, string>>) {
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

  beforeAll(async () => {
    world = await startUpstreamWorld();
    canary = canaryOf(world);
    const basic = Buffer.from(`${world.pipesKey.keyId}:${world.pipesKey.keySecret}`).toString('base64');
    forbidden = [canary, basic];
    client = new ProbeClient(world.gateway.url);
    prisma = world.gateway.app.get(PrismaService);
    ctx = await prepareContext(world, canary);

    const pipeIds: Partial<Record<Kind, string>> = {};
    for (const [phase, arrange] of PHASES) {
      world.pipes.faults.clear();
      world.dashboards.faults.clear();
      arrange(world, canary);
      await plantCanary((what) => `${phase}: ${what}`, pipeIds);
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
