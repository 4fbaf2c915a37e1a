/**
 * Every fault the upstream simulators can produce against every gateway route that calls an
 * upstream. The table built from FAULTS × ROUTES is the specification (docs/upstreams.md, docs/api.md and
 * the retry policy of src/upstream/upstream-http.ts): for each cell it states the status and
 * problem type the caller gets, how many calls of each method the upstream saw (creates, PATCHes and
 * DELETEs are never retried; GET and PUT are retried boundedly within UPSTREAM_TIMEOUT_MS),
 * Retry-After where the answer promises one, and whether the stored credential is marked refused.
 * Every cell also checks what must hold whatever the fault: X-Request-Id on the answer and on every
 * upstream call, no canary secret in the answer, and no write left half-done (the create-spec
 * history entry completed, no dashboard version kept for a replace that did not happen, no audited
 * action left `pending`).
 *
 * The circuit breaker (src/upstream/circuit-breaker.ts: 5 failures in a row per credential, 30 s)
 * has no configuration to turn it off, so before each cell a successful call through each
 * credential closes it again; one cell of its own shows it opening (per credential).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { validDashboardBody } from '../fixtures/dashboard-bodies';
import { PrismaService } from '../../src/database/prisma.service';
import { validCreateBody, validUpdateBody } from '../fixtures/pipe-bodies';
import type { FaultEffect, FaultSpec } from '../../sandbox';
import { ROUTES as CATALOG, routeName } from '../security/route-catalog';
import { bearer } from '../support/fixtures';
import { canaryOf, startUpstreamWorld, type UpstreamWorld } from '../support/upstreams';

/**
 * The matrix's UPSTREAM_TIMEOUT_MS: short, so that hangs are quick, yet long enough that three
 * attempts with their back-off (≤ 100 + 200 ms) fit in it on a machine busy with other suites.
 */
const TIMEOUT_MS = 2_000;
/**
 * A hang or a slow upstream is cut off at the deadline; this much slack covers the rest of the call on
 * a loaded machine, and still tells a cut-off call from one that waited for the slow upstream.
 */
const DEADLINE_SLACK_MS = TIMEOUT_MS;
/** The slow upstream answers this late: far enough past the deadline plus its slack to tell them apart. */
const SLOW_UPSTREAM_MS = TIMEOUT_MS + DEADLINE_SLACK_MS + 2_000;
/** Attempts in all for an idempotent call (DEFAULT_RETRY_POLICY.maxAttempts). */
const MAX_ATTEMPTS = 3;

type UpstreamName = 'pipes' | 'dashboards';
type UpstreamMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type WriteAction =
  | 'pipe.create'
  | 'pipe.update'
  | 'pipe.delete'
  | 'pipe.state'
  | 'pipe.scale'
  | 'pipe.settings'
  | 'dashboard.create'
  | 'dashboard.replace'
  | 'dashboard.restore'
  | 'dashboard.delete';
type Call = ReturnType<TestAgent['get']>;

/** What a route needs to build its request. */
interface MatrixContext {
  world: UpstreamWorld;
  pipeId: string;
  dashboardId: string;
  /** The stored dashboard version the restore routes put back. */
  version: number;
  /** `?credentialId=` for the dashboards routes; empty for the tenant's default credential. */
  dashboardsQuery: Record<string, string>;
  /** The organization of the pipes routes, when not the world's. */
  organizationId?: string;
  /** A history entry whose spec holds only references: it can be submitted again. */
  resubmittableId: string;
}

interface MatrixRoute {
  name: string;
  /** The route as the route catalog names it. */
  catalog: string;
  upstream: UpstreamName;
  /** The upstream call the fault is scoped to. */
  faulted: UpstreamMethod;
  /** A dashboards write reads the current dashboard first (for If-Match and the stored version). */
  readsFirst?: boolean;
  /** The fault hits that read; the write (`writesWith`) follows only when the read succeeded. */
  faultOnRead?: boolean;
  /** The upstream method of the write after the read, for routes that read first. */
  writesWith?: UpstreamMethod;
  write: WriteAction | null;
  /** The status of success, when not 200. */
  succeeds?: 201 | 204;
  send(ctx: MatrixContext, requestId: string): Call;
}

const operator = (ctx: MatrixContext) => bearer(ctx.world.tenant.keys.operator);
const viewer = (ctx: MatrixContext) => bearer(ctx.world.tenant.keys.viewer);
const pipesPath = (ctx: MatrixContext) =>
  `/v1/organizations/${ctx.organizationId ?? ctx.world.organizationId}/services/${ctx.world.serviceId}/pipes`;
const specSecret = (world: UpstreamWorld) => `${canaryOf(world)}-spec`;

const putDashboard = (ctx: MatrixContext, requestId: string): Call =>
  ctx.world.gateway.http
    .put(`/v1/dashboards/${ctx.dashboardId}`)
    .query(ctx.dashboardsQuery)
    .set(operator(ctx))
    .set('X-Request-Id', requestId)
    .send(validDashboardBody());
/** A pipe made upstream for this call alone: the routes that delete or stop one use it. */
const freshPipePath = (ctx: MatrixContext): string =>
  `${pipesPath(ctx)}/${ctx.world.pipes.seedPipe(ctx.world.organizationId, ctx.world.serviceId, validCreateBody('kafka')).id}`;
const deleteDashboard = (ctx: MatrixContext, requestId: string): Call =>
  ctx.world.gateway.http
    .delete(`/v1/dashboards/${ctx.world.dashboards.seedDashboard({ name: 'To delete', tiles: [] }).id}`)
    .query(ctx.dashboardsQuery)
    .set(operator(ctx))
    .set('X-Request-Id', requestId);
const restoreDashboard = (ctx: MatrixContext, requestId: string): Call =>
  ctx.world.gateway.http
    .post(`/v1/dashboards/${ctx.dashboardId}/versions/${ctx.version}/restore`)
    .query(ctx.dashboardsQuery)
    .set(operator(ctx))
    .set('X-Request-Id', requestId);

/**
 * A call that prepares a cell and must succeed. The matrix's deadline is short, so on a loaded
 * machine an unfaulted call may miss it (504): that one is made again, a few times at most.
 */
async function succeed(call: () => Call): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const response = await call();
    if (response.status === 200) return;
    if (response.status !== 504 || attempt === 5) {
      throw new Error(`a preparing call answered ${response.status}: ${response.text.slice(0, 300)}`);
    }
  }
}

const ROUTES: readonly MatrixRoute[] = [
  {
    name: 'POST pipe (create)',
    catalog: 'POST /v1/organizations/{organizationId}/services/{serviceId}/pipes',
    upstream: 'pipes',
    faulted: 'POST',
    write: 'pipe.create',
    send: (ctx, requestId) =>
      ctx.world.gateway.http
        .post(pipesPath(ctx))
        .set(operator(ctx))
        .set('X-Request-Id', requestId)
        .send(validCreateBody('kafka', { secret: specSecret(ctx.world) })),
  },
  {
    name: 'PATCH pipe (update)',
    catalog: 'PATCH /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}',
    upstream: 'pipes',
    faulted: 'PATCH',
    write: 'pipe.update',
    send: (ctx, requestId) =>
      ctx.world.gateway.http
        .patch(`${pipesPath(ctx)}/${ctx.pipeId}`)
        .set(operator(ctx))
        .set('X-Request-Id', requestId)
        .send(validUpdateBody('kafka', { secret: specSecret(ctx.world) })),
  },
  {
    name: 'GET pipe settings',
    catalog: 'GET /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings',
    upstream: 'pipes',
    faulted: 'GET',
    write: null,
    send: (ctx, requestId) =>
      ctx.world.gateway.http
        .get(`${pipesPath(ctx)}/${ctx.pipeId}/settings`)
        .set(viewer(ctx))
        .set('X-Request-Id', requestId),
  },
  {
    name: 'POST history resubmit',
    catalog: 'POST /v1/history/pipe-specs/{id}/resubmit',
    upstream: 'pipes',
    faulted: 'POST',
    write: 'pipe.create',
    send: (ctx, requestId) =>
      ctx.world.gateway.http
        .post(`/v1/history/pipe-specs/${ctx.resubmittableId}/resubmit`)
        .set(operator(ctx))
        .set('X-Request-Id', requestId),
  },
  {
    name: 'GET pipes (list)',
    catalog: 'GET /v1/organizations/{organizationId}/services/{serviceId}/pipes',
    upstream: 'pipes',
    faulted: 'GET',
    write: null,
    send: (ctx, requestId) =>
      ctx.world.gateway.http.get(pipesPath(ctx)).set(viewer(ctx)).set('X-Request-Id', requestId),
  },
  {
    name: 'GET pipe',
    catalog: 'GET /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}',
    upstream: 'pipes',
    faulted: 'GET',
    write: null,
    send: (ctx, requestId) =>
      ctx.world.gateway.http
        .get(`${pipesPath(ctx)}/${ctx.pipeId}`)
        .set(viewer(ctx))
        .set('X-Request-Id', requestId),
  },
  {
    name: 'DELETE pipe',
    catalog: 'DELETE /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}',
    upstream: 'pipes',
    faulted: 'DELETE',
    write: 'pipe.delete',
    send: (ctx, requestId) =>
      ctx.world.gateway.http.delete(freshPipePath(ctx)).set(operator(ctx)).set('X-Request-Id', requestId),
  },
  {
    name: 'PATCH pipe state (stop)',
    catalog: 'PATCH /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/state',
    upstream: 'pipes',
    faulted: 'PATCH',
    write: 'pipe.state',
    send: (ctx, requestId) =>
      ctx.world.gateway.http
        .patch(`${freshPipePath(ctx)}/state`)
        .set(operator(ctx))
        .set('X-Request-Id', requestId)
        .send({ command: 'stop' }),
  },
  {
    name: 'PATCH pipe scaling',
    catalog: 'PATCH /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/scaling',
    upstream: 'pipes',
    faulted: 'PATCH',
    write: 'pipe.scale',
    send: (ctx, requestId) =>
      ctx.world.gateway.http
        .patch(`${pipesPath(ctx)}/${ctx.pipeId}/scaling`)
        .set(operator(ctx))
        .set('X-Request-Id', requestId)
        .send({ replicas: 2 }),
  },
  {
    name: 'PUT pipe settings',
    catalog: 'PUT /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings',
    upstream: 'pipes',
    faulted: 'PUT',
    write: 'pipe.settings',
    send: (ctx, requestId) =>
      ctx.world.gateway.http
        .put(`${pipesPath(ctx)}/${ctx.pipeId}/settings`)
        .set(operator(ctx))
        .set('X-Request-Id', requestId)
        .send({ clickhouse_max_threads: 8 }),
  },
  {
    name: 'GET dashboards (list)',
    catalog: 'GET /v1/dashboards',
    upstream: 'dashboards',
    faulted: 'GET',
    write: null,
    send: (ctx, requestId) =>
      ctx.world.gateway.http
        .get('/v1/dashboards')
        .query(ctx.dashboardsQuery)
        .set(viewer(ctx))
        .set('X-Request-Id', requestId),
  },
  {
    name: 'POST dashboard (create)',
    catalog: 'POST /v1/dashboards',
    upstream: 'dashboards',
    faulted: 'POST',
    write: 'dashboard.create',
    succeeds: 201,
    send: (ctx, requestId) =>
      ctx.world.gateway.http
        .post('/v1/dashboards')
        .query(ctx.dashboardsQuery)
        .set(operator(ctx))
        .set('X-Request-Id', requestId)
        .send(validDashboardBody()),
  },
  {
    name: 'DELETE dashboard',
    catalog: 'DELETE /v1/dashboards/{id}',
    upstream: 'dashboards',
    faulted: 'DELETE',
    readsFirst: true,
    writesWith: 'DELETE',
    write: 'dashboard.delete',
    succeeds: 204,
    send: deleteDashboard,
  },
  {
    name: 'DELETE dashboard, fault on its read',
    catalog: 'DELETE /v1/dashboards/{id}',
    upstream: 'dashboards',
    faulted: 'GET',
    readsFirst: true,
    faultOnRead: true,
    writesWith: 'DELETE',
    write: 'dashboard.delete',
    succeeds: 204,
    send: deleteDashboard,
  },
  {
    name: 'GET dashboard',
    catalog: 'GET /v1/dashboards/{id}',
    upstream: 'dashboards',
    faulted: 'GET',
    write: null,
    send: (ctx, requestId) =>
      ctx.world.gateway.http
        .get(`/v1/dashboards/${ctx.dashboardId}`)
        .query(ctx.dashboardsQuery)
        .set(viewer(ctx))
        .set('X-Request-Id', requestId),
  },
  {
    name: 'PUT dashboard',
    catalog: 'PUT /v1/dashboards/{id}',
    upstream: 'dashboards',
    faulted: 'PUT',
    readsFirst: true,
    writesWith: 'PUT',
    write: 'dashboard.replace',
    send: putDashboard,
  },
  {
    name: 'POST dashboard version restore',
    catalog: 'POST /v1/dashboards/{id}/versions/{n}/restore',
    upstream: 'dashboards',
    faulted: 'PUT',
    readsFirst: true,
    writesWith: 'PUT',
    write: 'dashboard.restore',
    send: restoreDashboard,
  },
  {
    name: 'PUT dashboard, fault on its read',
    catalog: 'PUT /v1/dashboards/{id}',
    upstream: 'dashboards',
    faulted: 'GET',
    readsFirst: true,
    faultOnRead: true,
    writesWith: 'PUT',
    write: 'dashboard.replace',
    send: putDashboard,
  },
  {
    name: 'POST dashboard version restore, fault on its read',
    catalog: 'POST /v1/dashboards/{id}/versions/{n}/restore',
    upstream: 'dashboards',
    faulted: 'GET',
    readsFirst: true,
    faultOnRead: true,
    writesWith: 'PUT',
    write: 'dashboard.restore',
    send: restoreDashboard,
  },
];

/** What the caller gets and what the upstream saw, as one object so a failure shows all of it. */
interface Outcome {
  status: number;
  /** The problem type's slug; absent on success. */
  type?: string;
  /** Calls the upstream received, by method. */
  calls: Partial<Record<UpstreamMethod, number>>;
  retryAfter?: string;
  /** `upstream.status` of the problem, for answers that carry the upstream's own. */
  upstreamStatus?: number;
  /** The stored credential is marked refused with this upstream status. */
  rejectedStatus: number | null;
}

interface Expectation {
  status: number;
  type?: string;
  /** Calls of the faulted method. */
  attempts: number;
  retryAfter?: string;
  upstreamStatus?: number;
  rejectedStatus?: number;
  /** The answer comes at the deadline, not before and not long after. */
  atDeadline?: boolean;
}

/** How a fault is produced: a simulator fault kind, or the pipes API's own idle-service state. */
type FaultSource = FaultEffect['kind'] | 'idleService';

interface MatrixFault {
  name: string;
  source: FaultSource;
  /** Only this upstream can produce it (the idle service is a pipes API state). */
  only?: UpstreamName;
  install(world: UpstreamWorld, route: MatrixRoute): void;
  expect(route: MatrixRoute): Expectation;
}

const retried = (route: MatrixRoute) => route.faulted === 'GET' || route.faulted === 'PUT';
const succeeded = (route: MatrixRoute, attempts = 1): Expectation => ({
  status: route.succeeds ?? 200,
  attempts,
});
const ok = (route: MatrixRoute): Expectation => succeeded(route);
const attemptsFor = (route: MatrixRoute) => (retried(route) ? MAX_ATTEMPTS : 1);

/** A fault on the route's own upstream call only. */
function scoped(world: UpstreamWorld, route: MatrixRoute, fault: FaultSpec): void {
  world[route.upstream].faults.add({ ...fault, method: route.faulted });
}

const serverError = (status: number): MatrixFault => ({
  name: `upstream ${status}, always`,
  source: 'status',
  install: (world, route) =>
    scoped(world, route, {
      kind: 'status',
      status,
      // The upstream quotes a connection string: the password in it must not come back.
      body: {
        status,
        error: `upstream failed: postgres://svc:${canaryOf(world)}-url@db:5432/x`,
        requestId: randomUUID(),
      },
    }),
  expect: (route) => ({
    status: 502,
    type: 'upstream-error',
    // Only 502, 503 and 504 (and 429) say "try again"; a 500 is answered at once.
    attempts: status === 500 ? 1 : attemptsFor(route),
    upstreamStatus: status,
  }),
});

const refused = (status: 401 | 403): MatrixFault => ({
  name: `upstream ${status} (stored credential refused)`,
  source: 'status',
  install: (world, route) => scoped(world, route, { kind: 'status', status }),
  expect: () => ({
    status: 502,
    type: 'upstream-credential-rejected',
    attempts: 1,
    upstreamStatus: status,
    rejectedStatus: status,
  }),
});

const FAULTS: readonly MatrixFault[] = [
  serverError(500),
  serverError(502),
  serverError(503),
  serverError(504),
  {
    name: 'upstream 503 once',
    source: 'status',
    install: (world, route) => scoped(world, route, { kind: 'status', status: 503, times: 1 }),
    expect: (route) =>
      retried(route) ? succeeded(route, 2) : { status: 502, type: 'upstream-error', attempts: 1 },
  },
  {
    name: '429 with a short Retry-After (0 s), always',
    source: 'rateLimit',
    install: (world, route) => scoped(world, route, { kind: 'rateLimit', retryAfterSeconds: 0 }),
    expect: (route) => ({
      status: 429,
      type: 'upstream-rate-limited',
      attempts: attemptsFor(route),
      retryAfter: '1',
      upstreamStatus: 429,
    }),
  },
  {
    name: '429 with a short Retry-After (0 s), once',
    source: 'rateLimit',
    install: (world, route) => scoped(world, route, { kind: 'rateLimit', retryAfterSeconds: 0, times: 1 }),
    expect: (route) =>
      retried(route)
        ? succeeded(route, 2)
        : {
            status: 429,
            type: 'upstream-rate-limited',
            attempts: 1,
            retryAfter: '1',
            upstreamStatus: 429,
          },
  },
  {
    name: '429 with a long Retry-After (30 s)',
    source: 'rateLimit',
    install: (world, route) => scoped(world, route, { kind: 'rateLimit', retryAfterSeconds: 30 }),
    expect: () => ({
      status: 429,
      type: 'upstream-rate-limited',
      attempts: 1,
      retryAfter: '30',
      upstreamStatus: 429,
    }),
  },
  {
    name: 'connection reset, always',
    source: 'reset',
    install: (world, route) => scoped(world, route, { kind: 'reset' }),
    expect: (route) => ({ status: 502, type: 'upstream-unreachable', attempts: attemptsFor(route) }),
  },
  {
    name: 'connection reset once',
    source: 'reset',
    install: (world, route) => scoped(world, route, { kind: 'reset', times: 1 }),
    expect: (route) =>
      retried(route) ? succeeded(route, 2) : { status: 502, type: 'upstream-unreachable', attempts: 1 },
  },
  {
    name: 'hang (never answers)',
    source: 'hang',
    install: (world, route) => scoped(world, route, { kind: 'hang' }),
    expect: () => ({ status: 504, type: 'upstream-timeout', attempts: 1, atDeadline: true }),
  },
  {
    name: 'slow past the deadline',
    source: 'latency',
    install: (world, route) => scoped(world, route, { kind: 'latency', ms: SLOW_UPSTREAM_MS }),
    expect: () => ({ status: 504, type: 'upstream-timeout', attempts: 1, atDeadline: true }),
  },
  {
    name: 'slow but within the deadline',
    source: 'latency',
    install: (world, route) => scoped(world, route, { kind: 'latency', ms: 150 }),
    expect: ok,
  },
  {
    name: 'malformed JSON body',
    source: 'malformedBody',
    install: (world, route) => scoped(world, route, { kind: 'malformedBody' }),
    expect: () => ({ status: 502, type: 'upstream-invalid-answer', attempts: 1 }),
  },
  {
    name: 'answer over UPSTREAM_MAX_ANSWER_BYTES (4 MiB)',
    source: 'largeBody',
    install: (world, route) => scoped(world, route, { kind: 'largeBody', bytes: 5 * 1024 * 1024 }),
    expect: () => ({ status: 502, type: 'upstream-answer-too-large', attempts: 1 }),
  },
  refused(401),
  refused(403),
  {
    name: '424 service idle',
    source: 'idleService',
    only: 'pipes',
    install: (world) => world.pipes.markServiceIdle(world.serviceId),
    expect: () => ({ status: 424, type: 'upstream-service-idle', attempts: 1, upstreamStatus: 424 }),
  },
  {
    name: '409 conflict',
    source: 'status',
    install: (world, route) =>
      scoped(world, route, {
        kind: 'status',
        status: 409,
        body: { status: 409, error: 'conflict', requestId: randomUUID() },
      }),
    expect: () => ({ status: 409, type: 'upstream-rejected-request', attempts: 1, upstreamStatus: 409 }),
  },
  {
    name: 'echoes the secrets it was sent',
    source: 'echoSecrets',
    install: (world, route) => scoped(world, route, { kind: 'echoSecrets' }),
    expect: ok,
  },
  {
    name: 'error body quoting the credential it was sent, verbatim',
    source: 'status',
    install: (world, route) =>
      scoped(world, route, {
        kind: 'status',
        status: 500,
        body: {
          status: 500,
          error:
            route.upstream === 'pipes'
              ? `key ${world.pipesKey.keyId}:${world.pipesKey.keySecret} refused (Basic ${basicCredentialsOf(world)})`
              : `token ${world.dashboardsToken} refused`,
          requestId: randomUUID(),
        },
      }),
    expect: () => ({ status: 502, type: 'upstream-error', attempts: 1, upstreamStatus: 500 }),
  },
];

interface Cell {
  fault: MatrixFault;
  route: MatrixRoute;
  expected: Expectation;
}

const cellName = ({ fault, route, expected }: Cell) =>
  `${fault.name} × ${route.name} → ${expected.status}${expected.type ? ` ${expected.type}` : ''}, ` +
  `${expected.attempts} attempt${expected.attempts === 1 ? '' : 's'}`;

const CELLS: Cell[] = FAULTS.flatMap((fault) =>
  ROUTES.filter((route) => fault.only === undefined || fault.only === route.upstream).map((route) => ({
    fault,
    route,
    expected: fault.expect(route),
  })),
);

/**
 * Cells where the gateway does not do what the table says: `fault × route` → what happens instead.
 * They run as it.failing, so fixing the gateway turns them red until they are moved back.
 */
const KNOWN_BUGS = new Map<string, string>([]);

const keyOf = (cell: Cell) => `${cell.fault.name} × ${cell.route.name}`;
const SOUND_CELLS = CELLS.filter((cell) => !KNOWN_BUGS.has(keyOf(cell))).map(
  (cell) => [cellName(cell), cell] as const,
);
const BUG_CELLS = CELLS.filter((cell) => KNOWN_BUGS.has(keyOf(cell))).map(
  (cell) => [`${cellName(cell)} (bug: ${KNOWN_BUGS.get(keyOf(cell))})`, cell] as const,
);

describe('upstream fault matrix: every fault × every route that calls an upstream (e2e)', () => {
  let ctx: MatrixContext;
  let world: UpstreamWorld;
  let pipesCredentialId: string;
  let spareDashboardsCredentialId: string;
  const refusedCredentials = new Set<UpstreamName>();

  beforeAll(async () => {
    world = await startUpstreamWorld({ UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) });
    const created = await world.gateway.http
      .post(`/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes`)
      .set(bearer(world.tenant.keys.operator))
      .send(validCreateBody('kafka', { secret: specSecret(world) }))
      .expect(200);
    const dashboardId = world.dashboards.seedDashboard({ name: 'Checkout', tiles: [], tags: [] }).id;
    await world.gateway.http
      .put(`/v1/dashboards/${dashboardId}`)
      .set(bearer(world.tenant.keys.operator))
      .send(validDashboardBody())
      .expect(200);
    ctx = {
      world,
      pipeId: created.body.result.id,
      dashboardId,
      version: 1,
      dashboardsQuery: {},
      resubmittableId: await resubmittableSpec(world),
    };
    const credentials = await world.gateway.http
      .get('/v1/credentials')
      .set(bearer(world.tenant.keys.viewer))
      .expect(200);
    pipesCredentialId = (credentials.body.items as { id: string; kind: string }[]).find(
      (credential) => credential.kind === 'pipes',
    )!.id;
    const spare = await world.gateway.http
      .post('/v1/credentials')
      .set(bearer(world.tenant.keys.admin))
      .send({ kind: 'dashboards', name: 'spare dashboards', token: world.dashboardsToken })
      .expect(201);
    spareDashboardsCredentialId = spare.body.id;
  });
  afterAll(async () => {
    await world?.close();
  });
  beforeEach(async () => {
    for (const simulator of [world.pipes, world.dashboards]) simulator.faults.clear();
    world.pipes.wakeService(world.serviceId);
    // A success through each credential closes its circuit breaker again (see the file comment).
    await succeed(() =>
      ctx.world.gateway.http.get(`${pipesPath(ctx)}/${ctx.pipeId}/settings`).set(viewer(ctx)),
    );
    await succeed(() => ctx.world.gateway.http.get(`/v1/dashboards/${ctx.dashboardId}`).set(viewer(ctx)));
    for (const simulator of [world.pipes, world.dashboards]) simulator.clearRequests();
  });
  afterEach(async () => {
    // A refused credential stays marked until rotated; rotate it back to the same secret.
    for (const upstream of refusedCredentials) {
      const [id, body] =
        upstream === 'pipes'
          ? [pipesCredentialId, { keySecret: world.pipesKey.keySecret }]
          : [world.dashboardsCredentialId, { token: world.dashboardsToken }];
      await world.gateway.http
        .post(`/v1/credentials/${id}/rotate`)
        .set(bearer(world.tenant.keys.admin))
        .send(body)
        .expect(200);
    }
    refusedCredentials.clear();
  });

  const credentialIdOf = (upstream: UpstreamName) =>
    upstream === 'pipes' ? pipesCredentialId : world.dashboardsCredentialId;

  async function runCell({ fault, route, expected }: Cell): Promise<void> {
    if (expected.rejectedStatus !== undefined) refusedCredentials.add(route.upstream);
    const requestId = `fault-matrix-${randomUUID()}`;
    const versionsBefore = await versionCount(ctx);
    fault.install(world, route);
    const started = Date.now();
    const response = await route.send(ctx, requestId);
    const elapsed = Date.now() - started;
    world.pipes.faults.clear();
    world.dashboards.faults.clear();

    const calls = world[route.upstream].requests();
    const callsOf = (method: UpstreamMethod) => calls.filter((call) => call.method === method).length;
    const credential = await world.gateway.http
      .get(`/v1/credentials/${credentialIdOf(route.upstream)}`)
      .set(bearer(world.tenant.keys.viewer))
      .expect(200);
    const actual: Outcome = {
      status: response.status,
      ...(response.status >= 400 ? { type: problemSlug(response) } : {}),
      calls: Object.fromEntries(
        (['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const)
          .map((method) => [method, callsOf(method)] as const)
          .filter(([, count]) => count > 0),
      ),
      ...(response.headers['retry-after'] !== undefined
        ? { retryAfter: String(response.headers['retry-after']) }
        : {}),
      ...(expected.upstreamStatus !== undefined ? { upstreamStatus: response.body?.upstream?.status } : {}),
      rejectedStatus: credential.body.rejectedStatus ?? null,
    };
    expect(actual).toEqual(expectedOutcome(route, expected));

    expectAnswerSound(response, requestId, [canaryOf(world), basicCredentialsOf(world)]);
    for (const call of calls) expect(call.headers['x-request-id']).toBe(requestId);
    if (expected.atDeadline) {
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(TIMEOUT_MS + DEADLINE_SLACK_MS);
    }
    await expectNothingHalfDone(ctx, route, response, requestId, versionsBefore);
  }

  it.each(SOUND_CELLS)('%s', async (_name, cell) => runCell(cell));
  if (BUG_CELLS.length > 0) it.failing.each(BUG_CELLS)('%s', async (_name, cell) => runCell(cell));

  it('covers every route of the catalog that calls an upstream, and every fault the simulators know', () => {
    // The event stream calls no upstream as it opens: its poller does, apart from any request.
    const callsUpstream = (name: string) =>
      (name.includes(' /v1/organizations/') && !name.endsWith('/pipes/events')) ||
      name.endsWith('/resubmit') ||
      (/ \/v1\/dashboards(\/|$)/.test(name) && !/^GET .*\/versions/.test(name));
    expect([...new Set(ROUTES.map((route) => route.catalog))].sort()).toEqual(
      CATALOG.map(routeName).filter(callsUpstream).sort(),
    );
    // A fault kind added to the sandbox fails to compile here until the matrix covers it.
    const sources: Record<FaultSource, true> = {
      latency: true,
      status: true,
      rateLimit: true,
      reset: true,
      hang: true,
      malformedBody: true,
      largeBody: true,
      echoSecrets: true,
      idleService: true,
    };
    expect([...new Set(FAULTS.map((fault) => fault.source))].sort()).toEqual(Object.keys(sources).sort());
  });

  it('opens the circuit of one dashboards credential after 5 failures in a row; the others keep working', async () => {
    const spare = { ...ctx, dashboardsQuery: { credentialId: spareDashboardsCredentialId } };
    const getDashboard = ROUTES.find((route) => route.name === 'GET dashboard')!;
    world.dashboards.faults.add({ kind: 'status', status: 500 });
    for (let i = 0; i < 5; i++) {
      const failed = await getDashboard.send(spare, `breaker-${i}`);
      expect([failed.status, problemSlug(failed)]).toEqual([502, 'upstream-error']);
    }
    const calls = world.dashboards.requests().length;
    const versionsBefore = await versionCount(ctx);

    const read = await getDashboard.send(spare, 'breaker-open-read');
    const write = await putDashboard(spare, 'breaker-open-write');
    for (const [response, requestId] of [
      [read, 'breaker-open-read'],
      [write, 'breaker-open-write'],
    ] as const) {
      expect([response.status, problemSlug(response)]).toEqual([503, 'upstream-circuit-open']);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expectAnswerSound(response, requestId, [canaryOf(world), basicCredentialsOf(world)]);
    }
    expect(world.dashboards.requests()).toHaveLength(calls);
    expect(await versionCount(ctx)).toBe(versionsBefore);

    world.dashboards.faults.clear();
    await getDashboard.send(ctx, 'breaker-default-credential').expect(200);
    const stillOpen = await getDashboard.send(spare, 'breaker-still-open');
    expect(stillOpen.status).toBe(503);
  });
});

describe('upstream fault matrix: the upstream is not listening (e2e)', () => {
  let ctx: MatrixContext;
  let world: UpstreamWorld;

  /** The not-listening upstream: one route per upstream call, as above, with nothing to answer it. */
  const DEAD_ROUTES = ROUTES.filter((route) => !route.faultOnRead);
  const DEAD_CELLS = DEAD_ROUTES.map((listed) => {
    // Nothing listens, so the dashboards writes fail on their read: no write is ever attempted.
    const route: MatrixRoute = listed.readsFirst ? { ...listed, faulted: 'GET', faultOnRead: true } : listed;
    const attempts = attemptsFor(route);
    return [`${route.name} → 502 upstream-unreachable, ${attempts} attempt(s)`, route, attempts] as const;
  });

  let deadUrl: string;

  beforeAll(async () => {
    deadUrl = `http://127.0.0.1:${await closedPort()}`;
    world = await startUpstreamWorld({
      UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
      PIPES_API_URL: deadUrl,
      // A self-hosted dashboards credential pointing at the closed port (http allowed in the sandbox).
      SANDBOX: 'true',
      DASHBOARDS_ALLOWED_HOSTS: new URL(deadUrl).host,
    });
    const operatorKey = bearer(world.tenant.keys.operator);
    const dashboardId = world.dashboards.seedDashboard({ name: 'Checkout', tiles: [], tags: [] }).id;
    // Version 1, written through the default credential, whose upstream is alive.
    await world.gateway.http
      .put(`/v1/dashboards/${dashboardId}`)
      .set(operatorKey)
      .send(validDashboardBody())
      .expect(200);
    ctx = {
      world,
      pipeId: randomUUID(),
      dashboardId,
      version: 1,
      dashboardsQuery: {},
      resubmittableId: await resubmittableSpec(world),
    };
  });
  afterAll(async () => {
    await world?.close();
  });

  // Every call fails: each cell gets credentials of its own, so no earlier cell has opened their breakers.
  beforeEach(async () => {
    const admin = bearer(world.tenant.keys.admin);
    ctx.organizationId = randomUUID();
    await world.gateway.http
      .post('/v1/credentials')
      .set(admin)
      .send({ kind: 'pipes', name: 'down', organizationId: ctx.organizationId, ...world.pipesKey })
      .expect(201);
    const dead = await world.gateway.http
      .post('/v1/credentials')
      .set(admin)
      .send({ kind: 'dashboards', name: 'down', token: world.dashboardsToken, baseUrl: deadUrl })
      .expect(201);
    ctx.dashboardsQuery = { credentialId: dead.body.id };
  });

  it.each(DEAD_CELLS)('%s', async (_name, route, attempts) => {
    const requestId = `fault-matrix-dead-${randomUUID()}`;
    world.dashboards.clearRequests();
    const versionsBefore = await versionCount(ctx);
    const before = await upstreamAttempts(world, route.upstream);
    const response = await route.send(ctx, requestId);
    const after = await upstreamAttempts(world, route.upstream);
    expect({ status: response.status, type: problemSlug(response), attempts: after - before }).toEqual({
      status: 502,
      type: 'upstream-unreachable',
      attempts,
    });
    expectAnswerSound(response, requestId, [canaryOf(world), basicCredentialsOf(world)]);
    // The live default dashboards upstream is never called in its place.
    expect(world.dashboards.requests()).toHaveLength(0);
    await expectNothingHalfDone(ctx, route, response, requestId, versionsBefore);
  });
});

describe('upstream fault matrix: a hanging upstream gets the whole UPSTREAM_TIMEOUT_MS (e2e)', () => {
  const deadlineMs = 800;
  let world: UpstreamWorld;
  let dashboardId: string;

  beforeAll(async () => {
    world = await startUpstreamWorld({ UPSTREAM_TIMEOUT_MS: String(deadlineMs) });
    dashboardId = world.dashboards.seedDashboard({ name: 'Checkout', tiles: [], tags: [] }).id;
  });
  afterAll(async () => {
    await world?.close();
  });

  /**
   * undici's headersTimeout/bodyTimeout run on coarse timers (a 499 ms tick): used as the deadline,
   * they cut an attempt off up to half a second early, depending on where in the tick the call
   * started, and an idempotent call then fired a second attempt that could not succeed. Calls
   * started 50 ms apart cover a whole tick.
   */
  it('answers 504 at the deadline, not before, after one attempt (10 calls started 50 ms apart)', async () => {
    world.dashboards.faults.add({ kind: 'hang', method: 'GET' });
    const calls = Array.from({ length: 10 }, async (_, i) => {
      await sleep(50 * i);
      const requestId = `deadline-${i}`;
      const started = Date.now();
      const response = await world.gateway.http
        .get(`/v1/dashboards/${dashboardId}`)
        .set(bearer(world.tenant.keys.viewer))
        .set('X-Request-Id', requestId);
      return { requestId, status: response.status, elapsed: Date.now() - started };
    });
    const answers = await Promise.all(calls);
    const attempts = (requestId: string) =>
      world.dashboards.requests().filter((call) => call.headers['x-request-id'] === requestId).length;
    expect(
      answers.map(({ requestId, status, elapsed }) => ({
        requestId,
        status,
        answeredBeforeDeadline: elapsed < deadlineMs - 20,
        attempts: attempts(requestId),
      })),
    ).toEqual(
      answers.map(({ requestId }) => ({
        requestId,
        status: 504,
        answeredBeforeDeadline: false,
        attempts: 1,
      })),
    );
  });
});

/**
 * A history entry whose spec uses only a vault secret's references, so it can be submitted again:
 * recorded whether or not its create reached the upstream.
 */
async function resubmittableSpec(world: UpstreamWorld): Promise<string> {
  const vault = await world.gateway.http
    .post('/v1/credentials')
    .set(bearer(world.tenant.keys.admin))
    .send({
      kind: 'secret',
      name: `matrix-${randomUUID().slice(0, 8)}`,
      value: { username: 'u', password: specSecret(world) },
    })
    .expect(201);
  const body = validCreateBody('kafka');
  body.source.kafka.credentials = { $secret: vault.body.id };
  body.source.kafka.schemaRegistry.credentials = { $secret: vault.body.id };
  const requestId = `matrix-resubmittable-${randomUUID()}`;
  await world.gateway.http
    .post(`/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes`)
    .set(bearer(world.tenant.keys.operator))
    .set('X-Request-Id', requestId)
    .send(body);
  const history = await world.gateway.http
    .get('/v1/history/pipe-specs')
    .query({ limit: '200' })
    .set(bearer(world.tenant.keys.auditor))
    .expect(200);
  return (history.body.items as { id: string; requestId: string }[]).find(
    (item) => item.requestId === requestId,
  )!.id;
}

function problemSlug(response: Response): string | undefined {
  const type = (response.body as { type?: unknown } | undefined)?.type;
  return typeof type === 'string' ? type.split('/').pop() : undefined;
}

function expectedOutcome(route: MatrixRoute, expected: Expectation): Outcome {
  const calls: Partial<Record<UpstreamMethod, number>> = { [route.faulted]: expected.attempts };
  if (route.readsFirst && !route.faultOnRead) calls.GET = 1;
  if (route.faultOnRead && expected.status === (route.succeeds ?? 200)) calls[route.writesWith!] = 1;
  return {
    status: expected.status,
    ...(expected.type ? { type: expected.type } : {}),
    calls,
    ...(expected.retryAfter ? { retryAfter: expected.retryAfter } : {}),
    ...(expected.upstreamStatus !== undefined ? { upstreamStatus: expected.upstreamStatus } : {}),
    rejectedStatus: expected.rejectedStatus ?? null,
  };
}

/** The pipes API's Basic credentials as sent: a leak of them would not contain the canary text. */
function basicCredentialsOf(world: UpstreamWorld): string {
  return Buffer.from(`${world.pipesKey.keyId}:${world.pipesKey.keySecret}`).toString('base64');
}

/** X-Request-Id (the caller's), problem+json with its fields on errors, and no secret anywhere. */
function expectAnswerSound(response: Response, requestId: string, secrets: readonly string[]): void {
  expect(response.headers['x-request-id']).toBe(requestId);
  if (response.status >= 400) {
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({
      type: expect.any(String),
      title: expect.any(String),
      detail: expect.any(String),
      status: response.status,
      requestId,
    });
  }
  const answer = `${JSON.stringify(response.headers)}\n${response.text}`;
  for (const secret of secrets) expect(answer).not.toContain(secret);
}

async function versionCount(ctx: MatrixContext): Promise<number> {
  const list = await ctx.world.gateway.http
    .get(`/v1/dashboards/${ctx.dashboardId}/versions`)
    .set(bearer(ctx.world.tenant.keys.viewer))
    .expect(200);
  return (list.body.items as unknown[]).length;
}

interface HistoryEntry {
  requestId: string;
  outcome: string;
  pipeId: string | null;
  error: { status?: number } | null;
}

/**
 * The write either happened and says so, or did not and left nothing behind: the history entry of a
 * create is `succeeded` or `failed`/`unknown` (never `pending`), a dashboard version is kept only for
 * a replace that happened, and no audited action of this request is left `pending`.
 */
async function expectNothingHalfDone(
  ctx: MatrixContext,
  route: MatrixRoute,
  response: Response,
  requestId: string,
  versionsBefore: number,
): Promise<void> {
  const { world } = ctx;
  const succeeded = response.status < 300;
  if (route.write === 'pipe.create') {
    const history = await world.gateway.http
      .get('/v1/history/pipe-specs')
      .query({ limit: '200' })
      .set(bearer(world.tenant.keys.auditor))
      .expect(200);
    const entries = (history.body.items as HistoryEntry[]).filter((item) => item.requestId === requestId);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    if (succeeded) {
      expect(entry).toMatchObject({ outcome: 'succeeded', pipeId: response.body.result.id });
    } else {
      expect(['failed', 'unknown']).toContain(entry.outcome);
      if (entry.outcome === 'failed') expect(entry.error?.status).toBe(response.status);
    }
    expect(JSON.stringify(entry)).not.toContain(canaryOf(world));
  }
  // Only a replace or restore of the matrix's dashboard keeps a version of it.
  const keepsVersion = route.write === 'dashboard.replace' || route.write === 'dashboard.restore';
  expect(await versionCount(ctx)).toBe(versionsBefore + (succeeded && keepsVersion ? 1 : 0));

  const events = await world.gateway.app.get(PrismaService).auditEvent.findMany({
    where: { tenantId: world.tenant.id, requestId },
    orderBy: { seq: 'asc' },
  });
  const lastByAction = new Map(events.map((event) => [`${event.action} ${event.target}`, event]));
  for (const [action, event] of lastByAction)
    expect([action, event.outcome]).not.toEqual([action, 'pending']);
  const writeAttempted = route.write !== null && !(route.faultOnRead && !succeeded);
  if (writeAttempted) {
    const mine = [...lastByAction.values()].filter((event) => event.action === route.write);
    expect(mine.map((event) => [event.outcome, event.httpStatus])).toEqual([
      [succeeded ? 'succeeded' : 'failed', response.status],
    ]);
  }
  expect(JSON.stringify(events)).not.toContain(canaryOf(world));
}

/** Sum of the gateway's upstream attempts (any outcome) for one upstream, from /metrics. */
async function upstreamAttempts(world: UpstreamWorld, upstream: UpstreamName): Promise<number> {
  const metrics = await world.gateway.http.get('/metrics').expect(200);
  return metrics.text
    .split('\n')
    .filter(
      (line) =>
        line.startsWith('gateway_upstream_requests_total{') && line.includes(`upstream="${upstream}"`),
    )
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** A loopback port that nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
