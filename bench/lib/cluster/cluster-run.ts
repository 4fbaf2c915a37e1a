/**
 * A cluster on this machine, run as a platform team runs one: HAProxy in front of gateway replicas
 * sharing one Postgres database and Redis, the upstream simulators behind them, a steady mixed
 * load and many event streams; then a rolling restart, a replica killed, and the ceilings. Used
 * by `npm run bench:cluster` and by test/cluster.e2e-spec.ts, which only differ in how long each
 * part lasts and how hard it pushes (ClusterPlan).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type DashboardsSimulator,
  type PipesSimulator,
  type RecordedRequest,
  startDashboardsSimulator,
  startPipesSimulator,
} from '../../../sandbox';
import { FixedWindowRateLimiter, type RateLimit } from '../../../sandbox/rate-limiter';
import { validDashboardBody } from '../../../test/fixtures/dashboard-bodies';
import { validCreateBody } from '../../../test/fixtures/pipe-bodies';
import { gatewayEnv } from '../database';
import { closedLoop, LoadTally } from '../load';
import { repositoryRoot } from '../processes';
import { checkStreams, Follower, missedChanges, type StreamCheck, type UpstreamChange } from './followers';
import { Haproxy } from './haproxy';
import { type Answer, MixedLoad, type Operation } from './mixed-load';
import { freePort, Replica, type ReplicaBuild } from './replicas';

/** How long each part of the run lasts and how hard it pushes. */
export interface ClusterPlan {
  build: ReplicaBuild;
  /** An empty database of the run's own. */
  databaseUrl: string;
  redisUrl: string;
  /** Where configurations and every process's output go. */
  folder: string;
  replicas: number;
  streams: number;
  /** Tenants that carry the steady load, each with its own upstream credentials and service. */
  tenants: number;
  /** Multiplies the rates of the steady load (ClusterLoadRates). */
  pace: number;
  /** Of steady load before the rolling restart, and after the killed replica is back. */
  steadySeconds: number;
  /** After each replica of the rolling restart is back in the balancer, before the next stops. */
  pauseSeconds: number;
  /** How long the killed replica stays down. */
  downSeconds: number;
  /** SHUTDOWN_DRAIN_MS of the replicas. */
  drainMs: number;
  /** Of each ceiling's closed loop. */
  ceilingSeconds: number;
  ceilingConnections: number;
  /** Tenants the "many tenants" ceiling spreads its writes over. */
  ceilingTenants: number;
  /** A step's progress, for whoever watches the run. */
  log: (line: string) => void;
}

/**
 * Upstream budgets of every credential, the gateway's and the simulators' alike. The steady load
 * leaves room for the reads a restart adds: a replica started again follows no service yet, so its
 * pipe reads are calls of their own.
 */
const PIPES_BUDGET = { limit: 60, windowMs: 10_000 };
const DASHBOARDS_BUDGET = { limit: 600, windowMs: 60_000 };
// Past its budget: the gateway must refuse the rest, however many replicas send them.
const PROBE_WRITES_PER_SECOND = (1.2 * PIPES_BUDGET.limit * 1000) / PIPES_BUDGET.windowMs;
const POLL_MS = 1_000;
const UPSTREAM_TIMEOUT_MS = 5_000;
const PIPES_PER_TENANT = 4;
const DASHBOARDS_PER_TENANT = 8;
const SECRETS_PER_CEILING_TENANT = 4;
const START_TIMEOUT_MS = 120_000;

/** Requests per second of each tenant's share of the steady load, before ClusterPlan.pace. */
export const CLUSTER_LOAD_RATES = {
  'pipe.read': 3,
  'dashboard.read': 1,
  'credentials.list': 1,
  'audit.list': 0.5,
  'pipe.update': 0.5,
  'pipe.scale': 0.5,
  'pipe.create': 0.1,
  'dashboard.replace': 0.5,
};

interface LoadTenant {
  id: string;
  name: string;
  /** admin, operator and auditor. */
  key: string;
  viewerKey: string;
  organizationId: string;
  serviceId: string;
  pipesKey: { keyId: string; keySecret: string };
  dashboardsToken: string;
  pipeIds: string[];
  dashboardIds: string[];
}

/** What the answers of one phase came to. */
export interface PhaseAnswers {
  requests: number;
  writes: number;
  /** Answers other than 2xx (0: none came), by `kind status`. */
  failed: Record<string, number>;
}

export interface ReplicaStop {
  replica: string;
  signal: 'SIGTERM' | 'SIGKILL';
  /** How the process ended. */
  exit: string;
  /** From the signal until the balancer marked the replica down, ms (null: it ended first). */
  outOfBalancerMs: number | null;
  /** From the signal until the process ended, ms. */
  endedMs: number;
  /** From the signal until the replica started again was back in the balancer, ms. */
  backMs: number;
}

export interface PendingWrite {
  requestId: string;
  kind: string;
  /** The last phase its request was in flight in (null: not one of the load's). */
  phase: string | null;
  /** What its caller was answered (0: no answer). */
  status: number;
  /** Whether the upstream received its call (the simulator saw its X-Request-Id). */
  reachedUpstream: boolean;
  /** For a pipe create, its history record's outcome now. */
  historyOutcome?: string;
}

/** What one upstream credential's calls came to, against its budget. */
export interface CredentialBudget {
  credential: string;
  calls: number;
  /** Calls the upstream refused as over its limit (the simulator's own count, window by window). */
  refusedUpstream: number;
  /** The most calls that reached the upstream within any stretch of one window, by arrival. */
  mostInWindow: number;
  limit: number;
  windowMs: number;
}

export interface CeilingFigure {
  name: string;
  replicas: number;
  tenants: number;
  connections: number;
  writesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
  statuses: Record<string, number>;
}

export interface ClusterOutcome {
  plan: Omit<ClusterPlan, 'log' | 'databaseUrl' | 'redisUrl' | 'folder'>;
  rolling: { answers: PhaseAnswers; stops: ReplicaStop[] };
  kill: {
    answers: PhaseAnswers;
    stop: ReplicaStop;
    /** Writes answered 2xx whose change is missing upstream or from the audit log. */
    effectMissing: { requestId: string; kind: string; missing: string }[];
    /** Writes whose `pending` audit event has no outcome: each reconciled against the upstream. */
    pending: PendingWrite[];
  };
  /** Over the whole run: each service's readers against each other. */
  streams: StreamCheck;
  /** States set upstream during the load, and how many no reader heard of. */
  upstreamChanges: { made: number; missed: number };
  /** Every tenant's chain, by the API's verify route and by tools/verify-audit-log.mjs on the exports. */
  chains: { tenants: number; failedApi: string[]; offline: string };
  /** List calls per poll interval of each followed service: one poller makes at most one. */
  pollers: { service: string; listCallsPerInterval: number }[];
  /** Each upstream credential's most calls in any window of its budget, beside the budget. */
  budgets: CredentialBudget[];
  /** Answers of the budget probe: its refusals (429) are the budget at work. */
  probe: {
    requests: number;
    refused: number;
    /** Those in flight on the killed replica: the balancer answers them 502 or cuts them. */
    cutByKill: number;
    /** Every other failure: its status, why, and the run's phase while it was in flight. */
    failures: string[];
  };
  ceilings: CeilingFigure[];
}

/** Runs the whole cluster; `cleanups` get what stops it, run by the caller whatever happens. */
export async function runCluster(
  plan: ClusterPlan,
  cleanups: (() => Promise<void>)[],
): Promise<ClusterOutcome> {
  const { log } = plan;
  const adminToken = randomBytes(24).toString('hex');
  const tenantSecrets = Array.from({ length: plan.tenants + 1 }, (_, index) => ({
    pipesKey: {
      keyId: `cluster-${index}-${randomUUID().slice(0, 8)}`,
      keySecret: randomBytes(24).toString('hex'),
    },
    dashboardsToken: randomBytes(24).toString('hex'),
  }));
  const pipes = await startPipesSimulator({
    keys: tenantSecrets.map((secrets) => secrets.pipesKey),
    rateLimit: PIPES_BUDGET,
    maxRecordedRequests: 10_000_000,
    stateDelaysMs: { provisioning: 200, setup: 200, snapshot: 200, oneOffLoad: 200, stopping: 200 },
  });
  cleanups.push(() => pipes.close());
  const dashboards = await startDashboardsSimulator({
    tokens: tenantSecrets.map((secrets) => secrets.dashboardsToken),
    rateLimit: DASHBOARDS_BUDGET,
    maxRecordedRequests: 10_000_000,
  });
  cleanups.push(() => dashboards.close());

  const env = gatewayEnv(plan.databaseUrl, 'info', {
    GATEWAY_ADMIN_TOKEN: adminToken,
    REDIS_URL: plan.redisUrl,
    PIPES_API_URL: pipes.url,
    DASHBOARDS_API_URL: dashboards.url,
    PIPES_API_RATE_LIMIT: `${PIPES_BUDGET.limit}/${PIPES_BUDGET.windowMs / 1000}s`,
    DASHBOARDS_API_RATE_LIMIT: `${DASHBOARDS_BUDGET.limit}/${DASHBOARDS_BUDGET.windowMs / 1000}s`,
    // Half the reads' share is each caller's: a tenant's readers here are one key.
    UPSTREAM_CALLER_READ_SHARE: '0.5',
    PIPE_READ_CACHE_MS: '2000',
    PIPE_EVENTS_POLL_MS: String(POLL_MS),
    PIPE_STREAMS_PER_KEY: String(plan.streams),
    UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
    SHUTDOWN_DRAIN_MS: String(plan.drainMs),
    // HAProxy adds the client's address (option forwardfor); it is the one proxy in front.
    TRUST_PROXY: 'loopback',
  });
  const replicas: Replica[] = [];
  for (let index = 1; index <= plan.replicas; index++) {
    const name = `r${index}`;
    replicas.push(new Replica(name, await freePort(), plan.build, env, join(plan.folder, `${name}.log`)));
  }
  cleanups.push(async () => {
    await Promise.all(replicas.map((replica) => replica.stop('SIGKILL').catch(() => undefined)));
  });
  log(`starting ${plan.replicas} replicas (${plan.build})`);
  // Side by side: the first to take the migration lock applies the migrations, the others wait for it.
  await Promise.all(replicas.map((replica) => replica.start(START_TIMEOUT_MS)));
  const proxy = await Haproxy.start({
    folder: plan.folder,
    port: await freePort(),
    replicas: replicas.map(({ name, port }) => ({ name, port })),
  });
  cleanups.push(() => proxy.stop());
  for (const replica of replicas) await proxy.waitUntilUp(replica.name, 30_000);
  const api = apiOf(proxy.url);

  log('seeding tenants, credentials, pipes and dashboards');
  const tenants: LoadTenant[] = [];
  for (let index = 0; index <= plan.tenants; index++) {
    tenants.push(await seedLoadTenant(api, adminToken, index, tenantSecrets[index], dashboards));
  }
  const probeTenant = tenants.pop()!;
  // Running from now on, as a console would show them, so the streams open on a quiet service.
  for (const id of tenants.flatMap((tenant) => tenant.pipeIds)) pipes.setPipeState(id, 'Running');

  log(`opening ${plan.streams} event streams`);
  const followers = Array.from({ length: plan.streams }, (_, index) => {
    const tenant = tenants[index % tenants.length];
    return {
      tenant,
      follower: new Follower(proxy.url, `${pipesBase(tenant)}/events`, `Bearer ${tenant.viewerKey}`),
    };
  });
  await Promise.all(followers.map(({ follower }) => follower.start()));
  await sleep(1_000);

  const load = new MixedLoad(
    proxy.url,
    [...tenants.flatMap((tenant) => operationsOf(tenant, plan.pace)), probeOperation(probeTenant)],
    `cluster-${randomUUID().slice(0, 8)}`,
  );
  pipes.clearRequests();
  dashboards.clearRequests();
  const loadStarted = Date.now();
  load.start();
  const changes = changeUpstream(pipes, tenants);
  log(`steady load for ${plan.steadySeconds} s`);
  await sleep(plan.steadySeconds * 1000);

  load.enter('rolling');
  const stops: ReplicaStop[] = [];
  for (const replica of replicas) {
    log(`rolling restart: ${replica.name} (SIGTERM, drain ${plan.drainMs} ms)`);
    stops.push(await restart(replica, proxy, 'SIGTERM', 0));
    await sleep(plan.pauseSeconds * 1000);
  }

  load.enter('kill');
  const victim = replicas[Math.min(1, replicas.length - 1)];
  log(`killing ${victim.name} (SIGKILL), down for ${plan.downSeconds} s`);
  const killed = await restart(victim, proxy, 'SIGKILL', plan.downSeconds * 1000);
  await sleep(plan.steadySeconds * 1000);
  await load.stop();
  changes.stop();
  const loadSeconds = (Date.now() - loadStarted) / 1000;
  // Changes made by the last writes reach every reader within a poll.
  await sleep(2 * POLL_MS + 1_000);
  for (const { follower } of followers) follower.stop();

  log('checking effects, pending writes, audit chains, pollers and budgets');
  const talliesOf = (tenant: LoadTenant) =>
    followers.filter((each) => each.tenant === tenant).map(({ follower }) => follower.tally);
  const answers = load.answers;
  const probeAnswers = answers.filter((answer) => answer.kind === 'probe.scale');
  const loadAnswers = answers.filter((answer) => answer.kind !== 'probe.scale');
  const calls = [...pipes.requests(), ...dashboards.requests()];
  const callIds = new Set(calls.map((call) => String(call.headers['x-request-id'])));
  const exports = new Map<string, AuditEvent[]>();
  for (const tenant of [...tenants, probeTenant]) exports.set(tenant.id, await auditExport(api, tenant));
  const effectMissing = missingEffects(answers, exports, callIds, pipes);
  const pending = await pendingWrites(api, answers, [...tenants, probeTenant], exports, callIds);

  const outcome: Omit<ClusterOutcome, 'ceilings' | 'chains'> = {
    plan: {
      build: plan.build,
      replicas: plan.replicas,
      streams: plan.streams,
      tenants: plan.tenants,
      pace: plan.pace,
      steadySeconds: plan.steadySeconds,
      pauseSeconds: plan.pauseSeconds,
      downSeconds: plan.downSeconds,
      drainMs: plan.drainMs,
      ceilingSeconds: plan.ceilingSeconds,
      ceilingConnections: plan.ceilingConnections,
      ceilingTenants: plan.ceilingTenants,
    },
    rolling: { answers: phaseAnswers(loadAnswers, 'rolling'), stops },
    kill: { answers: phaseAnswers(loadAnswers, 'kill'), stop: killed, effectMissing, pending },
    streams: checkStreams(tenants.map(talliesOf)),
    upstreamChanges: {
      made: [...changes.made.values()].flat().length,
      missed: tenants.reduce(
        (sum, tenant) => sum + missedChanges(talliesOf(tenant), changes.made.get(tenant) ?? []),
        0,
      ),
    },
    pollers: tenants.map((tenant) => ({
      service: tenant.serviceId,
      listCallsPerInterval:
        // The upstream names the list as the gateway does (PIPES_API_RESOURCE `pipes`).
        calls.filter((call) => call.method === 'GET' && call.path === pipesBase(tenant)).length /
        ((loadSeconds * 1000) / POLL_MS),
    })),
    budgets: tenantSecrets.flatMap((secrets, index) => {
      const whose = index === plan.tenants ? 'probe' : `tenant ${index}`;
      return [
        budgetOf(
          `pipes ${whose}`,
          calls.filter((call) => call.headers.authorization === `Basic ${basic(secrets.pipesKey)}`),
          PIPES_BUDGET,
        ),
        budgetOf(
          `dashboards ${whose}`,
          calls.filter((call) => call.headers.authorization === `Bearer ${secrets.dashboardsToken}`),
          DASHBOARDS_BUDGET,
        ),
      ];
    }),
    probe: {
      requests: probeAnswers.length,
      refused: probeAnswers.filter((answer) => answer.status === 429).length,
      ...probeFailures(probeAnswers.filter((answer) => !ok(answer) && answer.status !== 429)),
    },
  };

  log('ceilings');
  const ceilingTenants = await seedCeilingTenants(api, adminToken, plan.ceilingTenants);
  const ceilings = await measureCeilings(plan, proxy, replicas, ceilingTenants);

  const chains = await verifyChains(
    api,
    [...tenants, probeTenant, ...ceilingTenants].map((tenant) => ({ id: tenant.id, key: tenant.key })),
    plan.folder,
  );
  return { ...outcome, chains, ceilings };
}

// Each tenant's seeded pipes in turn, one a second: a pipe changes every few poll intervals, so no
// two of its changes fall into one poll.
const UPSTREAM_CHANGE_EVERY_MS = 1_000;

/**
 * States set at the simulator while the load runs, as the provider's console would: the event
 * streams learn of them only by polling, whichever replica polls at the time.
 */
function changeUpstream(
  pipes: PipesSimulator,
  tenants: LoadTenant[],
): { made: Map<LoadTenant, UpstreamChange[]>; stop: () => void } {
  const made = new Map<LoadTenant, UpstreamChange[]>();
  let turn = 0;
  const timer = setInterval(() => {
    const tenant = tenants[turn % tenants.length];
    const pipeId = tenant.pipeIds[Math.floor(turn / tenants.length) % tenant.pipeIds.length];
    // Alternates from the Running they were pinned to.
    const state =
      Math.floor(turn / (tenants.length * tenant.pipeIds.length)) % 2 === 0 ? 'Stopped' : 'Running';
    turn++;
    pipes.setPipeState(pipeId, state);
    made.set(tenant, [...(made.get(tenant) ?? []), { pipeId, state }]);
  }, UPSTREAM_CHANGE_EVERY_MS);
  return { made, stop: () => clearInterval(timer) };
}

/** Stops a replica with `signal`, starts it again after `downMs`, and waits until the balancer uses it. */
async function restart(
  replica: Replica,
  proxy: Haproxy,
  signal: 'SIGTERM' | 'SIGKILL',
  downMs: number,
): Promise<ReplicaStop> {
  const signalledAt = Date.now();
  let outOfBalancerMs: number | null = null;
  let watching = true;
  const watch = (async () => {
    while (watching && outOfBalancerMs === null) {
      const state = (await proxy.states()).get(replica.name);
      if (state !== undefined && !state.startsWith('UP')) outOfBalancerMs = Date.now() - signalledAt;
      await sleep(20);
    }
  })();
  const exit = await replica.stop(signal);
  const endedMs = Date.now() - signalledAt;
  watching = false;
  await watch;
  await sleep(downMs);
  await replica.start(START_TIMEOUT_MS);
  await proxy.waitUntilUp(replica.name, 30_000);
  return {
    replica: replica.name,
    signal,
    exit,
    outOfBalancerMs: outOfBalancerMs !== null && outOfBalancerMs <= endedMs ? outOfBalancerMs : null,
    endedMs,
    backMs: Date.now() - signalledAt,
  };
}

type Api = (
  method: string,
  path: string,
  token: string,
  body?: unknown,
) => Promise<{ status: number; body: any; text: string }>;

function apiOf(baseUrl: string): Api {
  return async (method, path, token, body) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // An export is NDJSON, read as text.
    }
    return { status: response.status, body: parsed, text };
  };
}

async function expectStatus(
  answer: Promise<{ status: number; body: any; text: string }>,
  status: number,
  what: string,
): Promise<any> {
  const { status: got, text, body } = await answer;
  if (got !== status) throw new Error(`${what} answered ${got}: ${text.slice(0, 300)}`);
  return body;
}

async function seedTenant(
  api: Api,
  adminToken: string,
  name: string,
  roles: string[][],
): Promise<{ id: string; keys: string[] }> {
  const tenant = await expectStatus(api('POST', '/v1/admin/tenants', adminToken, { name }), 201, 'a tenant');
  const keys: string[] = [];
  for (const [index, keyRoles] of roles.entries()) {
    const issued = await expectStatus(
      api('POST', `/v1/admin/tenants/${tenant.id}/keys`, adminToken, {
        name: `key-${index}`,
        roles: keyRoles,
      }),
      201,
      'a key',
    );
    keys.push(issued.key as string);
  }
  return { id: tenant.id as string, keys };
}

async function seedLoadTenant(
  api: Api,
  adminToken: string,
  index: number,
  secrets: { pipesKey: { keyId: string; keySecret: string }; dashboardsToken: string },
  dashboards: DashboardsSimulator,
): Promise<LoadTenant> {
  const name = `cluster-load-${index}-${randomUUID().slice(0, 8)}`;
  const { id, keys } = await seedTenant(api, adminToken, name, [
    ['admin', 'operator', 'auditor'],
    ['viewer'],
  ]);
  const tenant: LoadTenant = {
    id,
    name,
    key: keys[0],
    viewerKey: keys[1],
    organizationId: randomUUID(),
    serviceId: randomUUID(),
    ...secrets,
    pipeIds: [],
    dashboardIds: [],
  };
  await expectStatus(
    api('POST', '/v1/credentials', tenant.key, {
      kind: 'pipes',
      name: 'pipes',
      organizationId: tenant.organizationId,
      ...secrets.pipesKey,
    }),
    201,
    'a pipes credential',
  );
  await expectStatus(
    api('POST', '/v1/credentials', tenant.key, {
      kind: 'dashboards',
      name: 'dashboards',
      token: secrets.dashboardsToken,
    }),
    201,
    'a dashboards credential',
  );
  for (let pipe = 0; pipe < PIPES_PER_TENANT; pipe++) {
    const created = await expectStatus(
      api('POST', pipesBase(tenant), tenant.key, { ...validCreateBody('kafka'), name: `${name}-${pipe}` }),
      200,
      'a pipe create',
    );
    tenant.pipeIds.push(created.result.id as string);
  }
  const { tiles, tags } = validDashboardBody();
  for (let dashboard = 0; dashboard < DASHBOARDS_PER_TENANT; dashboard++) {
    const id = randomBytes(12).toString('hex');
    dashboards.seedDashboard({ id, name: `${name}-${dashboard}`, tiles, tags });
    tenant.dashboardIds.push(id);
  }
  return tenant;
}

const pipesBase = (tenant: LoadTenant): string =>
  `/v1/organizations/${tenant.organizationId}/services/${tenant.serviceId}/pipes`;

const basic = (key: { keyId: string; keySecret: string }): string =>
  Buffer.from(`${key.keyId}:${key.keySecret}`).toString('base64');

/** A tenant's share of the steady load. */
function operationsOf(tenant: LoadTenant, pace: number): Operation[] {
  let turn = 0;
  const pick = <T>(items: T[]): T => items[turn++ % items.length];
  const auth = `Bearer ${tenant.key}`;
  const { name, tiles, tags } = validDashboardBody();
  const make: Record<keyof typeof CLUSTER_LOAD_RATES, Omit<Operation, 'kind' | 'rate'>> = {
    'pipe.read': {
      write: false,
      // One pipe, as a page showing it would: its reads share one upstream call per read cache lifetime.
      next: () => ({ method: 'GET', path: `${pipesBase(tenant)}/${tenant.pipeIds[0]}`, authorization: auth }),
    },
    'dashboard.read': {
      write: false,
      next: () => ({
        method: 'GET',
        path: `/v1/dashboards/${pick(tenant.dashboardIds)}`,
        authorization: auth,
      }),
    },
    'credentials.list': {
      write: false,
      next: () => ({ method: 'GET', path: '/v1/credentials', authorization: auth }),
    },
    'audit.list': {
      write: false,
      next: () => ({ method: 'GET', path: '/v1/audit?limit=10', authorization: auth }),
    },
    'pipe.update': {
      write: true,
      next: (requestId) => ({
        method: 'PATCH',
        path: `${pipesBase(tenant)}/${pick(tenant.pipeIds)}`,
        authorization: auth,
        body: { name: `renamed-${requestId}` },
      }),
    },
    'pipe.scale': {
      write: true,
      next: () => ({
        method: 'PATCH',
        path: `${pipesBase(tenant)}/${pick(tenant.pipeIds)}/scaling`,
        authorization: auth,
        body: { replicas: 1 + (turn % 4), replicaCpuMillicores: 500, replicaMemoryGb: 1 },
      }),
    },
    'pipe.create': {
      write: true,
      next: (requestId) => ({
        method: 'POST',
        path: pipesBase(tenant),
        authorization: auth,
        body: { ...validCreateBody('kafka'), name: `created-${requestId}` },
      }),
    },
    'dashboard.replace': {
      write: true,
      next: (requestId) => ({
        method: 'PUT',
        path: `/v1/dashboards/${pick(tenant.dashboardIds)}`,
        authorization: auth,
        body: { name: `${name} ${requestId}`, tiles, tags },
      }),
    },
  };
  return Object.entries(CLUSTER_LOAD_RATES).map(([kind, rate]) => ({
    kind,
    rate: rate * pace,
    ...make[kind as keyof typeof CLUSTER_LOAD_RATES],
  }));
}

/** The probe's failures other than its refusals: those the kill cut, and the rest, each described. */
function probeFailures(failed: readonly Answer[]): Pick<ClusterOutcome['probe'], 'cutByKill' | 'failures'> {
  const cutByKill = (answer: Answer) =>
    answer.phase === 'kill' && (answer.status === 502 || answer.status === 0);
  const otherwise = failed.filter((answer) => !cutByKill(answer));
  return {
    cutByKill: failed.length - otherwise.length,
    failures: otherwise.map(({ status, reason, phase }) => `${status} ${reason ?? ''} during ${phase}`),
  };
}

/** Scaling writes of one tenant above its pipes budget, to show the budget holds across the replicas. */
function probeOperation(tenant: LoadTenant): Operation {
  let turn = 0;
  return {
    kind: 'probe.scale',
    rate: PROBE_WRITES_PER_SECOND,
    write: true,
    next: () => ({
      method: 'PATCH',
      path: `${pipesBase(tenant)}/${tenant.pipeIds[turn % tenant.pipeIds.length]}/scaling`,
      authorization: `Bearer ${tenant.key}`,
      body: { replicas: 1 + (turn++ % 4), replicaCpuMillicores: 500, replicaMemoryGb: 1 },
    }),
  };
}

const ok = (answer: Answer): boolean => answer.status >= 200 && answer.status < 300;

function phaseAnswers(answers: Answer[], phase: string): PhaseAnswers {
  const ofPhase = answers.filter((answer) => answer.phase === phase);
  const failed: Record<string, number> = {};
  for (const answer of ofPhase.filter((each) => !ok(each))) {
    const key = `${answer.kind} ${answer.status} ${answer.reason ?? ''}`.trim();
    failed[key] = (failed[key] ?? 0) + 1;
  }
  return { requests: ofPhase.length, writes: ofPhase.filter((answer) => answer.write).length, failed };
}

interface AuditEvent {
  requestId: string;
  action: string;
  outcome: string;
  target: string | null;
}

async function auditExport(api: Api, tenant: { key: string }): Promise<AuditEvent[]> {
  const { status, text } = await api('GET', '/v1/audit/export', tenant.key);
  if (status !== 200) throw new Error(`the audit export answered ${status}`);
  return text
    .split('\n')
    .filter((line) => line.startsWith('{"') && !line.startsWith('{"checkpoint"'))
    .map((line) => JSON.parse(line) as AuditEvent);
}

/** The writes answered 2xx whose change did not reach the upstream, or whose success the audit log lacks. */
function missingEffects(
  answers: Answer[],
  exports: Map<string, AuditEvent[]>,
  callIds: Set<string>,
  pipes: PipesSimulator,
): ClusterOutcome['kill']['effectMissing'] {
  const succeeded = new Set(
    [...exports.values()].flat().flatMap((event) => (event.outcome === 'succeeded' ? [event.requestId] : [])),
  );
  const missing: ClusterOutcome['kill']['effectMissing'] = [];
  for (const answer of answers.filter((each) => each.write && ok(each))) {
    const gaps = [
      ...(callIds.has(answer.requestId) ? [] : ['the upstream call']),
      ...(succeeded.has(answer.requestId) ? [] : ['the audit outcome']),
    ];
    if (answer.kind === 'pipe.create') {
      const id = (answer.body as { result?: { id?: string } } | undefined)?.result?.id;
      if (!id || !pipes.storedPipe(id)) gaps.push('the pipe upstream');
    }
    if (gaps.length > 0)
      missing.push({ requestId: answer.requestId, kind: answer.kind, missing: gaps.join(', ') });
  }
  return missing;
}

/**
 * The writes whose `pending` audit event has no outcome after it (a replica died between the two),
 * reconciled as docs/operations.md says: whether the upstream received the call, by its request
 * id, and for a pipe create what its history record says.
 */
async function pendingWrites(
  api: Api,
  answers: Answer[],
  tenants: LoadTenant[],
  exports: Map<string, AuditEvent[]>,
  callIds: Set<string>,
): Promise<PendingWrite[]> {
  const byRequest = new Map(answers.map((answer) => [answer.requestId, answer]));
  const pending: PendingWrite[] = [];
  for (const tenant of tenants) {
    const events = exports.get(tenant.id) ?? [];
    const outcomes = new Set(
      events.filter((event) => event.outcome !== 'pending').map((event) => event.requestId),
    );
    for (const event of events.filter(
      (each) => each.outcome === 'pending' && !outcomes.has(each.requestId),
    )) {
      const answer = byRequest.get(event.requestId);
      const write: PendingWrite = {
        requestId: event.requestId,
        kind: answer?.kind ?? event.action,
        phase: answer?.phase ?? null,
        status: answer?.status ?? 0,
        reachedUpstream: callIds.has(event.requestId),
      };
      if (event.action === 'pipe.create') {
        const history = await api('GET', `/v1/history/pipe-specs?limit=200`, tenant.key);
        const record = (history.body?.items as { requestId: string; outcome: string }[] | undefined)?.find(
          (item) => item.requestId === event.requestId,
        );
        write.historyOutcome = record?.outcome ?? 'not found';
      }
      pending.push(write);
    }
  }
  return pending;
}

/**
 * A credential's calls against its budget: the upstream's own verdict (the simulator's fixed
 * windows, replayed over the arrivals), and the most calls any sliding window held, which the
 * machine's pace may move past the budget by a call even when the gateway sent them in time.
 */
function budgetOf(credential: string, calls: RecordedRequest[], rule: RateLimit): CredentialBudget {
  const times = calls.map((call) => Date.parse(call.receivedAt)).sort((a, b) => a - b);
  let now = 0;
  const upstream = new FixedWindowRateLimiter(rule, () => now);
  let refusedUpstream = 0;
  let mostInWindow = 0;
  for (let first = 0, last = 0; last < times.length; last++) {
    now = times[last];
    if (!upstream.hit(credential).allowed) refusedUpstream++;
    while (times[last] - times[first] >= rule.windowMs) first++;
    mostInWindow = Math.max(mostInWindow, last - first + 1);
  }
  return { credential, calls: times.length, refusedUpstream, mostInWindow, ...rule };
}

interface CeilingTenant {
  id: string;
  key: string;
  secretIds: string[];
}

async function seedCeilingTenants(api: Api, adminToken: string, count: number): Promise<CeilingTenant[]> {
  const tenants: CeilingTenant[] = [];
  for (let index = 0; index < count; index++) {
    const { id, keys } = await seedTenant(
      api,
      adminToken,
      `cluster-ceiling-${index}-${randomUUID().slice(0, 8)}`,
      [['admin', 'auditor']],
    );
    const secretIds: string[] = [];
    for (let secret = 0; secret < SECRETS_PER_CEILING_TENANT; secret++) {
      const stored = await expectStatus(
        api('POST', '/v1/credentials', keys[0], {
          kind: 'secret',
          name: `secret-${secret}`,
          value: `value-${secret}`,
        }),
        201,
        'a vault secret',
      );
      secretIds.push(stored.id as string);
    }
    tenants.push({ id, key: keys[0], secretIds });
  }
  return tenants;
}

/**
 * Credential rotations in a closed loop through the balancer, each one transaction with one audit
 * append: over many tenants with every replica, then with one (the others taken out of the
 * balancer), then one tenant's alone with every replica, whose appends its chain takes in turn.
 */
async function measureCeilings(
  plan: ClusterPlan,
  proxy: Haproxy,
  replicas: Replica[],
  tenants: CeilingTenant[],
): Promise<CeilingFigure[]> {
  const run = async (name: string, over: CeilingTenant[], replicaCount: number): Promise<CeilingFigure> => {
    // Each tenant has its own clients, the connections shared out among them; one tally takes
    // every answer, and each loop adds its own seconds to it.
    const tally = new LoadTally();
    await Promise.all(
      over.map((tenant, index) => {
        let turn = 0;
        return closedLoop(
          proxy.url,
          {
            method: 'POST',
            path: () => `/v1/credentials/${tenant.secretIds[turn++ % tenant.secretIds.length]}/rotate`,
            headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ value: 'rotated' }),
          },
          {
            connections: Math.ceil((plan.ceilingConnections - index) / over.length),
            seconds: plan.ceilingSeconds,
          },
          tally,
        );
      }),
    );
    const result = tally.result();
    return {
      name,
      replicas: replicaCount,
      tenants: over.length,
      connections: plan.ceilingConnections,
      writesPerSecond: result.ok / (tally.seconds / over.length),
      p50Ms: result.p50,
      p99Ms: result.p99,
      failed: result.failed,
      statuses: result.statuses,
    };
  };
  const figures = [await run('many tenants', tenants, replicas.length)];
  const others = replicas.slice(1);
  for (const replica of others) await proxy.setServer(replica.name, 'disable');
  try {
    figures.push(await run('many tenants', tenants, 1));
  } finally {
    for (const replica of others) await proxy.setServer(replica.name, 'enable');
  }
  for (const replica of others) await proxy.waitUntilUp(replica.name, 30_000);
  figures.push(await run('one tenant', tenants.slice(0, 1), replicas.length));
  return figures;
}

/** Every tenant's chain by the verify route, and every export together by the offline tool. */
async function verifyChains(
  api: Api,
  tenants: { id: string; key: string }[],
  folder: string,
): Promise<ClusterOutcome['chains']> {
  const failedApi: string[] = [];
  const lines: string[] = [];
  for (const tenant of tenants) {
    const verified = await api('GET', '/v1/audit/verify', tenant.key);
    if (verified.status !== 200 || verified.body?.ok !== true)
      failedApi.push(`${tenant.id}: ${verified.status} ${verified.text.slice(0, 200)}`);
    lines.push((await api('GET', '/v1/audit/export', tenant.key)).text.trimEnd());
  }
  const keys = await api('GET', '/v1/audit/signing-keys', tenants[0].key);
  const logFile = join(folder, 'audit.ndjson');
  const keysFile = join(folder, 'signing-keys.json');
  writeFileSync(logFile, `${lines.join('\n')}\n`);
  writeFileSync(keysFile, keys.text);
  let offline: string;
  try {
    offline = execFileSync(
      process.execPath,
      [join(repositoryRoot(), 'tools/verify-audit-log.mjs'), logFile, '--keys', keysFile],
      { encoding: 'utf8' },
    ).trim();
  } catch (error) {
    offline = `failed: ${String((error as { stdout?: string }).stdout ?? error)}`.trim();
  }
  return { tenants: tenants.length, failedApi, offline };
}
