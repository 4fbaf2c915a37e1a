/**
 * Property-based fuzzing of every route's body, query string and path parameters against one
 * running gateway wired to both upstream simulators (no faults injected). Whatever arrives, the
 * gateway answers without a 5xx, every 4xx is problem+json, and no planted secret comes back.
 * `FUZZ_CASES_PER_ROUTE=5000 npm test -- test/reliability/fuzz.e2e-spec.ts` fuzzes deeper.
 */
import fc from 'fast-check';
import { ROLES } from '../../src/auth/roles';
import { encodeCursor } from '../../src/common/pagination';
import { todaysDashboardBody, validDashboardBody } from '../fixtures/dashboard-bodies';
import { realShapedCreateBodies, validCreateBody, validUpdateBody } from '../fixtures/pipe-bodies';
import { bearer, createTenant, type TestTenant } from '../support/fixtures';
import { canaryOf, startUpstreamWorld, type UpstreamWorld } from '../support/upstreams';
import { expectSound, json, ProbeClient, rawPathSegment } from '../security/http-probe';
import {
  authorizedCaller,
  documentedRoutes,
  fillTemplate,
  paramNames,
  pathOf,
  prepareUpstreamResources,
  prepareVault,
  ROUTES,
  routeName,
  type RouteContext,
  type RouteSpec,
} from '../security/route-catalog';

// Each run draws new cases, so runs add up; FUZZ_CASES_PER_ROUTE asks one run for more.
const CASES_PER_ROUTE = Number(process.env.FUZZ_CASES_PER_ROUTE ?? 300);
const SOURCE_KINDS = ['kafka', 'objectStorage', 'kinesis', 'postgres'] as const;

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** Any code point but a lone surrogate and NUL (NUL has a property of its own, at the end). */
const codePoint = fc
  .oneof(
    fc.integer({ min: 1, max: 0x7f }),
    fc.integer({ min: 0x80, max: 0xffff }).filter((point) => point < 0xd800 || point > 0xdfff),
    fc.integer({ min: 0x10000, max: 0x10ffff }),
  )
  .map((point) => String.fromCodePoint(point));

/** Small JSON of every kind, strings sometimes with control characters and any code point. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.jsonValue({ maxDepth: 2, stringUnit: codePoint }),
);
const anyString = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40, unit: codePoint }));

type Key = string | number;
type Mutation =
  | { op: 'drop'; pick: number }
  | { op: 'set'; pick: number; value: unknown }
  | { op: 'add'; pick: number; key: string; value: unknown }
  | { op: 'nest'; pick: number; depth: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('set' as const), pick: fc.nat(), value: anyJson }),
  fc.record({
    op: fc.constant('add' as const),
    pick: fc.nat(),
    key: fc.oneof(
      anyString,
      fc.constantFrom('__proto__', 'constructor', 'toString', 'prototype', 'toJSON', 'password'),
    ),
    value: anyJson,
  }),
  fc.record({ op: fc.constant('nest' as const), pick: fc.nat(), depth: fc.integer({ min: 1, max: 40 }) }),
);

const isContainer = (value: unknown): value is Record<Key, unknown> =>
  typeof value === 'object' && value !== null;

/** Every node's path, the root's (`[]`) first. */
function nodePaths(value: unknown, at: Key[] = []): Key[][] {
  if (!isContainer(value)) return [at];
  const children = Object.keys(value).map((key) => (Array.isArray(value) ? Number(key) : key));
  return [at, ...children.flatMap((key) => nodePaths(value[key], [...at, key]))];
}

function nested(value: unknown, depth: number): unknown {
  let result = value;
  for (let level = 0; level < depth; level++) result = level % 2 === 0 ? [result] : { deeper: result };
  return result;
}

/** Sets an own property, so `__proto__` becomes a key of the JSON rather than the prototype. */
function put(target: Record<Key, unknown>, key: Key, value: unknown): void {
  // A copy: the arbitrary's value is replayed while shrinking and must stay as generated.
  const copy: unknown = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  Object.defineProperty(target, key, { value: copy, enumerable: true, writable: true, configurable: true });
}

/** Applies one mutation to the node `pick` selects (modulo the node count); the root sits in a holder. */
function mutate(holder: { root: unknown }, change: Mutation): void {
  const paths = nodePaths(holder.root).map((path) => ['root', ...path]);
  const path = paths[change.pick % paths.length];
  const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], holder);
  const key = path[path.length - 1];
  switch (change.op) {
    case 'drop':
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else if (parent === holder) holder.root = {};
      else delete parent[key];
      return;
    case 'set':
      put(parent, key, change.value);
      return;
    case 'add': {
      const target = isContainer(parent[key]) && !Array.isArray(parent[key]) ? parent[key] : parent;
      if (target !== holder && !Array.isArray(target)) put(target, change.key, change.value);
      return;
    }
    case 'nest':
      parent[key] = nested(parent[key], change.depth);
      return;
  }
}

/** Valid fixtures changed one to three times (some stay valid); now and then raw JSON or raw text instead. */
function bodies(fixtures: fc.Arbitrary<object>): fc.Arbitrary<string> {
  const mutated = fc
    .tuple(fixtures, fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([fixture, changes]) => {
      const holder = { root: structuredClone(fixture) as unknown };
      for (const change of changes) mutate(holder, change);
      return json(holder.root);
    });
  return fc.oneof(
    { weight: 8, arbitrary: mutated },
    { weight: 2, arbitrary: anyJson.map(json) },
    { weight: 1, arbitrary: anyString },
  );
}

/** Path segments to put in place of a parameter: traversal, encodings, unicode, very long. */
const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '../',
    '..%2F..%2Fadmin',
    '%2e%2e',
    '%2e%2e%2f',
    '%2E%2E%2F..%2F',
    'a/b',
    'a%2Fb',
    '%00',
    'a%00b',
    '%0d%0aX-Injected:%201',
    '..%5c..%5c',
    '%252e%252e%252f',
    '%C0%AE%C0%AE%2F',
    '\uff0e\uff0e\uff0f',
    '~',
    '*',
    '%20',
    'null',
    '-1',
    '0',
    '1e3',
    '__proto__',
  ),
  fc.string({ maxLength: 40, unit: 'binary' }),
  fc.string({ maxLength: 40 }),
  fc.string({ minLength: 65, maxLength: 1500 }),
  fc.uuid(),
  fc.integer().map(String),
  fc
    .tuple(fc.constantFrom('../', '..%2f', '%2e%2e/', './', '/'), fc.string({ maxLength: 20 }))
    .map(([prefix, rest]) => prefix + rest),
);

/** A raw segment whose escapes decode; escapes that do not have a property of their own, at the end. */
function rawSegment(value: string): string {
  const raw = rawPathSegment(value);
  return decodes(raw) ? raw : raw.replace(/%/g, '%25');
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

type QueryValues = Record<string, fc.Arbitrary<string>>;

/** Query strings: known names with plausible and hostile values, unknown names, repeats, raw text. */
function queries(known: QueryValues): fc.Arbitrary<string> {
  const anyValue = fc.oneof(anyString, fc.integer().map(String), fc.uuid(), fc.constant(''));
  const knownPairs = Object.entries(known).map(([name, values]) =>
    fc.tuple(fc.constant(name), fc.oneof(values, anyValue)),
  );
  const pair = fc.oneof(...knownPairs, fc.tuple(anyString, anyValue));
  const encoded = fc.array(pair, { maxLength: 4 }).map((pairs) => new URLSearchParams(pairs).toString());
  const raw = fc
    .string({ maxLength: 60, unit: 'binary-ascii' })
    .map((text) =>
      Array.from(text, (char) =>
        /[\x21-\x7e]/.test(char) && char !== '#' ? char : encodeURIComponent(char),
      ).join(''),
    );
  return fc
    .oneof({ weight: 4, arbitrary: encoded }, { weight: 1, arbitrary: raw })
    .map((query) => (query === '' ? '' : `?${query}`));
}

const isoDates = fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
const pageQuery: QueryValues = {
  cursor: fc.oneof(fc.base64String({ maxLength: 40 }), fc.string({ maxLength: 40 })),
  limit: fc.oneof(
    fc.integer({ min: -5, max: 250 }).map(String),
    fc.constantFrom('1', '200', '201', '0', '1.5', '1e2', '0x10', ' 5', 'NaN'),
  ),
};
const timeRange: QueryValues = {
  from: fc.oneof(
    isoDates,
    fc.constantFrom('2026-01-01T00:00:00Z', '2026-01-01', '2026-13-01T00:00:00Z', 'now'),
  ),
  to: isoDates,
};
const outcomes = fc.constantFrom('pending', 'succeeded', 'failed', 'unknown', 'denied', 'SUCCEEDED');

// ---------------------------------------------------------------------------------------------
// What each route is fuzzed with

interface FuzzContext extends RouteContext {
  dashboardsCredentialId: string;
  actor: string;
  tenantName: string;
}

interface RouteFuzz {
  /**
   * The world's tenant owns the upstream resources; the scratch tenant takes the vault writes (a new
   * default dashboards credential there cannot break the dashboards routes); the quiet tenant holds
   * a little of everything, so that reading its lists and its audit log whole stays cheap.
   */
  tenant: 'world' | 'scratch' | 'quiet';
  body?: (ctx: FuzzContext) => fc.Arbitrary<string>;
  query?: (ctx: FuzzContext) => QueryValues;
}

const keyBodies = () =>
  bodies(fc.record({ name: fc.constant('fuzzed key'), roles: fc.subarray([...ROLES], { minLength: 1 }) }));
const groupMappingBodies = () =>
  bodies(
    fc.record({
      group: fc.uuid().map((id) => `fuzzed-${id}`),
      roles: fc.subarray([...ROLES], { minLength: 1 }),
    }),
  );
const dashboardQuery = (ctx: FuzzContext): QueryValues => ({
  credentialId: fc.oneof(fc.constant(ctx.dashboardsCredentialId), fc.uuid()),
});

const FUZZ: Record<string, RouteFuzz> = {
  'POST /v1/admin/tenants': {
    tenant: 'scratch',
    body: () => bodies(fc.uuid().map((id) => ({ name: `fuzz-${id.slice(0, 8)}` }))),
  },
  'GET /v1/admin/tenants': {
    tenant: 'scratch',
    query: (ctx) => ({
      ...pageQuery,
      name: fc.oneof(fc.constant(ctx.tenantName), fc.string({ maxLength: 80 })),
    }),
  },
  'POST /v1/admin/tenants/{tenantId}/keys': { tenant: 'scratch', body: keyBodies },
  'POST /v1/admin/tenants/{tenantId}/groups': {
    tenant: 'scratch',
    body: () => bodies(fc.record({ group: fc.uuid().map((id) => `fuzzed-${id}`) })),
  },
  'GET /v1/admin/tenants/{tenantId}/groups': { tenant: 'scratch', query: () => pageQuery },
  'DELETE /v1/admin/tenants/{tenantId}/groups/{id}': { tenant: 'scratch' },
  'POST /v1/admin/tenants/{tenantId}/group-mappings': { tenant: 'scratch', body: groupMappingBodies },
  'GET /v1/admin/tenants/{tenantId}/group-mappings': { tenant: 'scratch', query: () => pageQuery },
  'DELETE /v1/admin/tenants/{tenantId}/group-mappings/{id}': { tenant: 'scratch' },
  'POST /v1/group-mappings': { tenant: 'scratch', body: groupMappingBodies },
  'GET /v1/group-mappings': { tenant: 'scratch', query: () => pageQuery },
  'DELETE /v1/group-mappings/{id}': { tenant: 'scratch' },
  'POST /v1/keys': { tenant: 'scratch', body: keyBodies },
  'GET /v1/keys': { tenant: 'quiet', query: () => pageQuery },
  'DELETE /v1/keys/{id}': { tenant: 'scratch' },
  'POST /v1/credentials': {
    tenant: 'scratch',
    body: (ctx) =>
      bodies(
        fc.oneof(
          fc.uuid().map((organizationId) => ({
            kind: 'pipes',
            name: 'fuzzed',
            organizationId,
            keyId: 'KEYID-fuzz',
            keySecret: `${ctx.secret}-fuzz`,
          })),
          fc.boolean().map((isDefault) => ({
            kind: 'dashboards',
            name: 'fuzzed',
            token: `${ctx.secret}-fuzz`,
            isDefault,
          })),
        ),
      ),
  },
  'GET /v1/credentials': { tenant: 'quiet', query: () => pageQuery },
  'GET /v1/credentials/{id}': { tenant: 'scratch' },
  'POST /v1/credentials/{id}/rotate': {
    tenant: 'scratch',
    body: (ctx) =>
      bodies(
        fc.constantFrom(
          { keySecret: `${ctx.secret}-rotated` },
          { keyId: 'KEYID-rotated', keySecret: `${ctx.secret}-rotated` },
          { token: `${ctx.secret}-rotated` },
        ),
      ),
  },
  'DELETE /v1/credentials/{id}': {
    tenant: 'scratch',
    query: () => ({ force: fc.constantFrom('true', 'false', 'TRUE', '1', '') }),
  },
  'POST /v1/organizations/{organizationId}/services/{serviceId}/pipes': {
    tenant: 'world',
    body: (ctx) =>
      bodies(
        fc.oneof(
          fc.constantFrom(...SOURCE_KINDS).map((kind) => validCreateBody(kind, { secret: ctx.secret })),
          fc.constantFrom(...realShapedCreateBodies(ctx.secret).map(({ body }) => body)),
        ),
      ),
  },
  'PATCH /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}': {
    tenant: 'world',
    body: (ctx) =>
      bodies(fc.constantFrom(...SOURCE_KINDS).map((kind) => validUpdateBody(kind, { secret: ctx.secret }))),
  },
  'GET /v1/organizations/{organizationId}/services/{serviceId}/pipes': { tenant: 'world' },
  'GET /v1/organizations/{organizationId}/services/{serviceId}/pipes/events': {
    tenant: 'world',
    query: () => ({ pipeId: fc.uuid() }),
  },
  'GET /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}': { tenant: 'world' },
  'DELETE /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}': { tenant: 'world' },
  'PATCH /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/state': {
    tenant: 'world',
    body: () => bodies(fc.constantFrom({ command: 'start' }, { command: 'stop' }, { command: 'resync' })),
  },
  'PATCH /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/scaling': {
    tenant: 'world',
    body: () =>
      bodies(fc.constant({ replicas: 2, replicaCpuMillicores: 500, replicaMemoryGb: 1, concurrency: 1 })),
  },
  'GET /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings': { tenant: 'world' },
  'PUT /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings': {
    tenant: 'world',
    body: () => bodies(fc.constant(validCreateBody('kafka').settings as object)),
  },
  'GET /v1/dashboards': { tenant: 'world', query: dashboardQuery },
  'POST /v1/dashboards': {
    tenant: 'world',
    body: () => bodies(fc.constantFrom(validDashboardBody(), todaysDashboardBody())),
    query: dashboardQuery,
  },
  'DELETE /v1/dashboards/{id}': { tenant: 'world', query: dashboardQuery },
  'GET /v1/dashboards/{id}': { tenant: 'world', query: dashboardQuery },
  'PUT /v1/dashboards/{id}': {
    tenant: 'world',
    body: () => bodies(fc.constant(validDashboardBody())),
    query: dashboardQuery,
  },
  'GET /v1/dashboards/{id}/versions': { tenant: 'world' },
  'GET /v1/dashboards/{id}/versions/{n}': { tenant: 'world' },
  'POST /v1/dashboards/{id}/versions/{n}/restore': { tenant: 'world', query: dashboardQuery },
  'GET /v1/history/pipe-specs': {
    tenant: 'quiet',
    query: (ctx) => ({
      ...pageQuery,
      ...timeRange,
      organizationId: fc.oneof(fc.constant(ctx.organizationId), fc.uuid()),
      serviceId: fc.oneof(fc.constant(ctx.serviceId), fc.uuid()),
      outcome: outcomes,
      actor: fc.oneof(fc.constant(ctx.actor), fc.string()),
    }),
  },
  'GET /v1/history/pipe-specs/{id}': { tenant: 'world' },
  'POST /v1/history/pipe-specs/{id}/resubmit': {
    tenant: 'world',
    body: () => bodies(fc.constantFrom({}, { name: 'resubmitted' })),
  },
  'GET /v1/credentials/{id}/usage': { tenant: 'world' },
  'GET /v1/me': { tenant: 'world' },
  'GET /v1/audit': {
    tenant: 'quiet',
    query: (ctx) => ({
      ...pageQuery,
      ...timeRange,
      action: fc.constantFrom(
        'pipe.create',
        'credential.rotate',
        'dashboard.replace',
        'pipe',
        'Pipe.Create',
        'credential.',
        '.',
      ),
      actor: fc.oneof(fc.constant(ctx.actor), fc.string()),
      target: fc.oneof(fc.constant(`dashboard:${ctx.dashboardId}`), fc.string()),
      outcome: outcomes,
    }),
  },
  'GET /v1/audit/export': {
    tenant: 'quiet',
    query: (ctx) => ({
      ...timeRange,
      action: fc.constantFrom('pipe.create', 'dashboard.replace', 'pipe', 'pipe.'),
      actor: fc.oneof(fc.constant(ctx.actor), fc.string()),
      outcome: outcomes,
    }),
  },
  'GET /v1/audit/verify': { tenant: 'quiet' },
  // The context's checkpoint is the scratch tenant's (prepareVault).
  'POST /v1/audit/verify': {
    tenant: 'scratch',
    body: (ctx) => bodies(fc.constant({ checkpoint: ctx.checkpoint })),
  },
  'GET /v1/audit/checkpoint': { tenant: 'quiet' },
  'GET /v1/audit/actions': { tenant: 'quiet' },
  'GET /v1/audit/actors': { tenant: 'quiet', query: () => pageQuery },
  'GET /v1/audit/targets': {
    tenant: 'quiet',
    query: () => ({ ...pageQuery, kind: fc.constantFrom('pipe', 'credential', 'key', 'Pipe', 'pipe:', '%') }),
  },
  'POST /v1/audit/reviews': {
    tenant: 'scratch',
    body: () =>
      bodies(
        fc.record({
          throughSeq: fc.integer({ min: 1, max: 40 }),
          note: fc.string({ maxLength: 40 }),
        }),
      ),
  },
  'GET /v1/audit/reviews/latest': { tenant: 'quiet' },
  'GET /v1/audit/sinks': { tenant: 'quiet' },
  'GET /v1/admin/audit-sinks': { tenant: 'scratch' },
};

const FUZZED_ROUTES = ROUTES.filter((route) => route.access !== 'public');

type Slot = 'body' | 'query' | 'path';

/**
 * How a route's cases are shared among its slots. A route that declares no query parameters
 * ignores its query string, so each of those cases runs its happy path: that slot gets a tenth.
 */
function plan(route: RouteSpec): { slot: Slot; numRuns: number }[] {
  const fuzz = FUZZ[routeName(route)];
  const weights: [Slot, number][] = [
    ...(fuzz.body ? [['body', 1] as [Slot, number]] : []),
    ['query', fuzz.query ? 1 : 0.1],
    ...(paramNames(route.template).length > 0 ? [['path', 1] as [Slot, number]] : []),
  ];
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  return weights.map(([slot, weight]) => ({ slot, numRuns: Math.ceil((CASES_PER_ROUTE * weight) / total) }));
}

const CASES = FUZZED_ROUTES.flatMap((route) =>
  plan(route).map(({ slot, numRuns }) => [routeName(route), slot, numRuns, route] as const),
);

/** A tenant with one credential, one pipe and so one history record, and a short audit log. */
async function quietTenant(world: UpstreamWorld, secret: string): Promise<TestTenant> {
  const tenant = await createTenant(world.gateway);
  await world.gateway.http
    .post('/v1/credentials')
    .set(bearer(tenant.keys.admin))
    .send({ kind: 'pipes', name: 'quiet', organizationId: world.organizationId, ...world.pipesKey })
    .expect(201);
  await world.gateway.http
    .post(`/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes`)
    .set(bearer(tenant.keys.operator))
    .send(validCreateBody('kinesis', { secret }))
    .expect(200);
  return tenant;
}

// ---------------------------------------------------------------------------------------------

describe('fuzzing every route (e2e)', () => {
  let world: UpstreamWorld;
  let tenants: Record<RouteFuzz['tenant'], TestTenant>;
  let ctx: FuzzContext;
  let client: ProbeClient;
  let documented: Set<string>;
  let secrets: string[];

  beforeAll(async () => {
    world = await startUpstreamWorld();
    // Two requests in flight at most, whichever properties run at the same time.
    client = new ProbeClient(world.gateway.url, 2);
    const canary = canaryOf(world);
    secrets = [canary];
    tenants = {
      world: world.tenant,
      scratch: await createTenant(world.gateway),
      quiet: await quietTenant(world, canary),
    };
    ctx = {
      ...(await prepareVault(world.gateway, tenants.scratch, canary)),
      ...(await prepareUpstreamResources(world, canary)),
      secret: canary,
      dashboardsCredentialId: world.dashboardsCredentialId,
      actor: `key:${world.tenant.keyIds.operator}`,
      tenantName: world.tenant.name,
    };
    documented = new Set(await documentedRoutes(world.gateway));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await world?.close();
  });

  it('fuzzes every documented route', () => {
    const fuzzed = FUZZED_ROUTES.map(routeName);
    expect(fuzzed.sort()).toEqual(Object.keys(FUZZ).sort());
    const open = new Set(ROUTES.filter((route) => route.access === 'public').map(routeName));
    const guarded = [...documented].filter((name) => name.includes(' /v1/') && !open.has(name));
    expect(fuzzed).toEqual(expect.arrayContaining(guarded));
  });

  /** The parts of a request a slot leaves alone, as the route accepts them. */
  function request(route: RouteSpec, parts: { path?: string; query?: string; body?: string }) {
    const fuzz = FUZZ[routeName(route)];
    const tenant = tenants[fuzz.tenant];
    const validBody = route.body ? json(route.body(ctx)) : undefined;
    return {
      method: route.method,
      path: (parts.path ?? pathOf(route, ctx)) + (parts.query ?? ''),
      headers: authorizedCaller(route, tenant),
      body: parts.body ?? validBody,
    };
  }

  /** Each parameter: the context's value (now and then) or a hostile one, URI-encoded or sent raw. */
  function paths(route: RouteSpec): fc.Arbitrary<string> {
    const valid = route.params?.(ctx) ?? {};
    const segment = (name: string) =>
      fc
        .tuple(
          fc.oneof(
            { weight: 1, arbitrary: fc.constant(valid[name]) },
            { weight: 5, arbitrary: hostileSegment },
          ),
          fc.boolean(),
        )
        .map(([value, raw]) => (raw ? rawSegment(value) : encodeURIComponent(value)));
    const names = paramNames(route.template);
    return fc
      .tuple(...names.map(segment))
      .map((values) =>
        fillTemplate(route.template, Object.fromEntries(names.map((name, i) => [name, values[i]]))),
      );
  }

  function slotArbitrary(
    route: RouteSpec,
    slot: Slot,
  ): fc.Arbitrary<{ path?: string; query?: string; body?: string }> {
    const fuzz = FUZZ[routeName(route)];
    const body = fuzz.body?.(ctx);
    switch (slot) {
      case 'body':
        return body!.map((value) => ({ body: value }));
      case 'query': {
        // A route that ignores its query string would otherwise run its happy path every time;
        // drawing the body too keeps the run about the query string.
        const query = queries(fuzz.query?.(ctx) ?? {});
        return body ? fc.record({ query, body }) : query.map((value) => ({ query: value }));
      }
      case 'path':
        return paths(route).map((value) => ({ path: value }));
    }
  }

  it.concurrent.each(CASES)(
    '%s: %s (%i cases)',
    async (name, slot, numRuns, route) => {
      const mapped = documented.has(name);
      await fc.assert(
        fc.asyncProperty(slotArbitrary(route, slot), async (parts) => {
          const probe = request(route, parts);
          const response = await client.send(probe);
          if (!mapped) expect(response.status).toBe(404);
          expectSound(response, secrets, `${probe.method} ${probe.path}`);
        }),
        { numRuns },
      );
    },
    120_000,
  );

  /**
   * Inputs that once broke the gateway, each with a property of its own: the properties above draw
   * them too rarely to catch a return.
   */
  describe('inputs that once broke the gateway', () => {
    // Route names, not routes, are drawn, so that a counterexample reads well.
    const route = (name: string) => FUZZED_ROUTES.find((candidate) => routeName(candidate) === name)!;
    const namesWhere = (keep: (route: RouteSpec) => boolean) => FUZZED_ROUTES.filter(keep).map(routeName);
    const send = async (probe: ReturnType<typeof request>) =>
      expectSound(await client.send(probe), secrets, `${probe.method} ${probe.path}`);

    it('a well-formed cursor naming no row is refused with 400 by every list', async () => {
      const lists = ['GET /v1/keys', 'GET /v1/credentials', 'GET /v1/history/pipe-specs', 'GET /v1/audit'];
      const cursors = fc
        .tuple(isoDates, fc.oneof(fc.uuid(), fc.string({ minLength: 1 }), fc.nat().map(String)))
        .map(([at, id]) => encodeCursor({ at, id }));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...lists), cursors, (name, cursor) =>
          send(request(route(name), { query: `?cursor=${cursor}` })),
        ),
        { numRuns: 200 },
      );
    });

    it('a path escape that does not decode as UTF-8 is answered with problem+json', async () => {
      const escapes = fc.oneof(
        fc.constantFrom('%', '%zz', '%C0%AE%C0%AE', '%E0%A4%A', 'a%'),
        fc.integer({ min: 0x80, max: 0xff }).map((byte) => `%${byte.toString(16).toUpperCase()}`),
      );
      const names = namesWhere((candidate) => paramNames(candidate.template).length > 0);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...names), escapes, (name, escape) => {
          const { template } = route(name);
          const values = Object.fromEntries(paramNames(template).map((param) => [param, escape]));
          return send(request(route(name), { path: fillTemplate(template, values) }));
        }),
        { numRuns: 50 },
      );
    });

    it('a key named like an Object member, at any depth, is refused with 400 naming it', async () => {
      const names = namesWhere((candidate) => candidate.body !== undefined);
      const reserved = fc.constantFrom('constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__');
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...names),
          reserved,
          fc.boolean(),
          anyJson,
          async (name, key, nestedKey, value) => {
            const holder = {};
            put(holder, key, value);
            const body = nestedKey
              ? { ...route(name).body!(ctx), unknown: holder }
              : { ...route(name).body!(ctx), ...holder };
            const response = await client.send(request(route(name), { body: json(body) }));
            expectSound(response, secrets, `${name} with "${key}"`);
            expect(response.status).toBe(400);
            expect(JSON.parse(response.text).detail).toContain(`"${key}"`);
          },
        ),
        { numRuns: 100 },
      );
    });

    it('an encoded NUL in any query value is refused with 400', async () => {
      const lists = ['GET /v1/keys', 'GET /v1/credentials', 'GET /v1/history/pipe-specs', 'GET /v1/audit'];
      const names = fc.constantFrom('actor', 'outcome', 'cursor', 'limit', 'from', 'name', 'x');
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...lists), names, anyString, async (list, param, text) => {
          const response = await client.send(
            request(route(list), { query: `?${param}=${encodeURIComponent(text)}%00` }),
          );
          expectSound(response, secrets, `${list}?${param}=…%00`);
          expect(response.status).toBe(400);
        }),
        { numRuns: 100 },
      );
    });

    it('a NUL character in a string field is refused or kept, never a 500', async () => {
      // Resources of its own: once a NUL is stored upstream, replacing that dashboard fails for good.
      const own = await prepareUpstreamResources(world, ctx.secret);
      const pipes = `/v1/organizations/${own.organizationId}/services/${own.serviceId}/pipes`;
      const operator = bearer(world.tenant.keys.operator);
      const probes: Record<string, (text: string) => ReturnType<typeof request>> = {
        'pipe name on create': (text) => ({
          method: 'POST',
          path: pipes,
          headers: operator,
          body: json({ ...validCreateBody('kafka'), name: text }),
        }),
        'pipe name on update': (text) => ({
          method: 'PATCH',
          path: `${pipes}/${own.pipeId}`,
          headers: operator,
          body: json({ name: text }),
        }),
        'dashboard name on replace': (text) => ({
          method: 'PUT',
          path: `/v1/dashboards/${own.dashboardId}`,
          headers: operator,
          body: json({ ...validDashboardBody(), name: text }),
        }),
      };
      const withNul = fc.tuple(fc.string(), fc.string()).map(([before, after]) => `${before}\u0000${after}`);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...Object.keys(probes)), withNul, (field, text) =>
          send(probes[field](text)),
        ),
        { numRuns: 100 },
      );
    });
  });

  it('logged no planted secret while fuzzed', () => {
    for (const secret of secrets) expect(world.gateway.logs.text()).not.toContain(secret);
  });
});
