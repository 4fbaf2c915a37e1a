import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { countAuditEvents, freshDatabase, gatewayEnv, SERVER_IS_LOCAL } from './lib/database';
import { describeMachine } from './lib/machine';
import { commandOptions, namedInOrder } from './lib/options';
import { closedLoop, fixedRate, fixedRateAgent, headersOf, LoadTally } from './lib/load';
import type { LoadRequest } from './lib/load';
import {
  ask,
  collectRunnerGarbage,
  cpuMs,
  postgresCpuMs,
  productionLaunch,
  rssBytes,
  RssSampler,
  runMain,
  settle,
  startChild,
  stopChild,
} from './lib/processes';
import type { Message } from './lib/processes';
import { formatProfile, summariseAllocations, summariseProfile } from './lib/profile';
import { stageTimes } from './lib/stages';
import { targetsInTurn } from './lib/slice-order';
import { addRoundTrips } from './lib/statements';
import type { DatabaseTally, LargestAppend } from './children/database-tally';
import { formatAppendReplay, replayAppend } from './lib/append-replay';
import type { AppendReplay } from './lib/append-replay';
import {
  BASELINE,
  cacheOffName,
  checkTargets,
  comparedName,
  DIRECT,
  formatChecks,
  formatRoute,
  STACK_FLOOR,
  summarise,
} from './lib/report';
import type { Measured, RoundResult, RouteKind, RouteSummary, StageProfile } from './lib/report';
import {
  DASHBOARD_BODY,
  DASHBOARD_IDS,
  PIPE_BODY,
  pipesAuthorization,
  pipesPath,
  SCALING_BODY,
  SETTINGS_BODY,
} from './lib/scenario';
import type {
  BaselineReady,
  GatewayReady,
  PipesReset,
  SinkReceiversReady,
  SinkTally,
  UpstreamsReady,
} from './lib/scenario';

// Long enough for thousands of answers from a read, short enough that the machine's pace holds.
const SLICE_SECONDS = 1;
// At the fixed rate before measuring it: enough to renew what a target's idle stretch let expire.
const LEAD_IN_SECONDS = 1;
const RESULTS = resolve(__dirname, '../../bench/results');
const child = (name: string): string => join(__dirname, 'children', `${name}.js`);
// The stack floor answers these two reads and nothing else.
const STACK_FLOOR_ROUTES = ['GET settings', 'GET dashboard'];
// Signs the webhook sink's deliveries; the receiver does not check it.
const SINK_WEBHOOK_SECRET = randomBytes(32).toString('base64url');

const flags = commandOptions('bench', {
  rounds: { type: 'string', default: '1' },
  seconds: { type: 'string', default: '6' },
  warmup: { type: 'string', default: '3' },
  connections: { type: 'string', default: '50' },
  rate: { type: 'string', default: '500' },
  'rate-seconds': { type: 'string', default: '4' },
  'log-levels': { type: 'string', default: 'warn,info' },
  /** Comma-separated route names, e.g. 'GET settings', measured in that order; all when left out. */
  routes: { type: 'string' },
  profile: { type: 'boolean', default: false },
  /** With --profile: sample what the gateway allocates instead of where its CPU time goes. */
  allocations: { type: 'boolean', default: false },
  /** Node options for the gateway processes instead of those `npm run start:prod` runs it with. */
  'gateway-node-options': { type: 'string' },
  /** Keeps the .cpuprofile of --profile here (open it in Chrome DevTools); a temporary file otherwise. */
  'profile-out': { type: 'string' },
  /** Adds the stack floor (children/stack-floor.ts) to the read routes it serves. */
  'stack-floor': { type: 'boolean', default: false },
  /** Another build's dist directory: a gateway of it runs beside each of this build's. */
  compare: { type: 'string' },
  /** Node options for the --compare gateway instead of this build's: two flag sets in one run. */
  'compare-node-options': { type: 'string' },
  /** Leaves out the profiled pass of each write route after the rounds (its CPU by stage). */
  'skip-stages': { type: 'boolean', default: false },
});
const settings = {
  rounds: Number(flags.rounds),
  seconds: Number(flags.seconds),
  warmupSeconds: Number(flags.warmup),
  connections: Number(flags.connections),
  rate: Number(flags.rate),
  rateSeconds: Number(flags['rate-seconds']),
  logLevels: flags['log-levels'].split(','),
  routes: flags.routes?.split(','),
  gatewayNodeOptions:
    flags['gateway-node-options']?.split(' ').filter(Boolean) ?? productionLaunch().nodeOptions,
  compareNodeOptions: flags['compare-node-options']?.split(' ').filter(Boolean),
};
if (settings.compareNodeOptions && !flags.compare) {
  console.error(
    'bench: --compare-node-options sets the Node options of the --compare gateway: name its build too',
  );
  process.exit(2);
}

interface Route {
  name: string;
  kind: RouteKind;
  method: LoadRequest['method'];
  upstream: 'pipes' | 'dashboards';
  /** The path on the upstream (direct and baseline) and on the gateway. */
  upstreamPath: () => string;
  gatewayPath: () => string;
  body?: string;
  /** Served through the pipe read cache: also measured against a gateway with the cache off. */
  cached?: true;
  /** Sent with an Idempotency-Key of its own, as the console sends its creates. */
  idempotent?: true;
}

function routes(state: { pipeId: string }): Route[] {
  let next = 0;
  const dashboardId = (): string => DASHBOARD_IDS[next++ % DASHBOARD_IDS.length];
  const dashboard = {
    upstreamPath: () => `/api/v2/dashboards/${dashboardId()}`,
    gatewayPath: () => `/v1/dashboards/${dashboardId()}`,
  };
  const pipe = (suffix = '') => ({
    upstreamPath: () => pipesPath(state.pipeId, suffix),
    gatewayPath: () => pipesPath(state.pipeId, suffix),
  });
  return [
    // The reads with targets: every read route that calls an upstream.
    {
      name: 'GET settings',
      kind: 'read',
      method: 'GET',
      upstream: 'pipes',
      cached: true,
      ...pipe('/settings'),
    },
    { name: 'GET pipe', kind: 'read', method: 'GET', upstream: 'pipes', cached: true, ...pipe() },
    {
      name: 'GET pipes',
      kind: 'read',
      method: 'GET',
      upstream: 'pipes',
      cached: true,
      upstreamPath: () => pipesPath(),
      gatewayPath: () => pipesPath(),
    },
    { name: 'GET dashboard', kind: 'read', method: 'GET', upstream: 'dashboards', ...dashboard },
    {
      name: 'GET dashboards',
      kind: 'read',
      method: 'GET',
      upstream: 'dashboards',
      upstreamPath: () => '/api/v2/dashboards',
      gatewayPath: () => '/v1/dashboards',
    },
    {
      name: 'PUT dashboard',
      kind: 'write',
      method: 'PUT',
      upstream: 'dashboards',
      ...dashboard,
      body: DASHBOARD_BODY,
    },
    {
      name: 'POST pipe',
      kind: 'create',
      method: 'POST',
      upstream: 'pipes',
      upstreamPath: () => pipesPath(),
      gatewayPath: () => pipesPath(),
      body: PIPE_BODY,
      idempotent: true,
    },
    // The lifecycle writes, measured for the record, against no target.
    {
      name: 'PATCH pipe scaling',
      kind: 'reported',
      method: 'PATCH',
      upstream: 'pipes',
      ...pipe('/scaling'),
      body: SCALING_BODY,
    },
    {
      name: 'PUT pipe settings',
      kind: 'reported',
      method: 'PUT',
      upstream: 'pipes',
      ...pipe('/settings'),
      body: SETTINGS_BODY,
    },
  ];
}

interface Target {
  name: string;
  url: (route: Route) => string;
  request: (route: Route) => LoadRequest;
  /** The process that serves this target (for direct, the simulators). */
  pid: number;
  child: ChildProcess;
  /** Set for a gateway only: its own deployment, the database it alone uses and its sinks' receivers. */
  gateway?: { databaseUrl: string; sinkTally: () => Promise<SinkTally> };
  /** The routes it serves, when not all of them. */
  routes?: readonly string[];
}

function loadRequest(route: Route, path: () => string, authorization?: string): LoadRequest {
  return {
    method: route.method,
    path,
    headers: {
      ...(authorization ? { authorization } : {}),
      ...(route.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(route.idempotent ? { ownHeaders: () => ({ 'idempotency-key': randomUUID() }) } : {}),
    body: route.body,
  };
}

/** One request first, so a target that only fails is reported with its answer instead of measured. */
async function probe(url: string, request: LoadRequest): Promise<void> {
  const response = await fetch(`${url}${request.path()}`, {
    method: request.method,
    headers: headersOf(request),
    body: request.body,
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`${request.method} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
}

/**
 * What one target has used so far: CPU of its process, of Postgres, its GC pauses (ms), and for a
 * gateway its round trips to Postgres by kind.
 */
interface Usage {
  cpu: number | null;
  databaseCpu: number | null;
  gcPause: number | null;
  roundTrips: Record<string, number> | null;
}

async function usage(target: Target): Promise<Usage> {
  return {
    cpu: cpuMs(target.pid),
    databaseCpu: SERVER_IS_LOCAL ? postgresCpuMs() : null,
    gcPause: await gcPauseMs(target),
    roundTrips: target.gateway
      ? (await ask<DatabaseTally>(target.child, { type: 'database-tally' }, 'database-tally')).roundTrips
      : null,
  };
}

/** A target's measurement of one route, gathered over its slices. */
class TargetRun {
  readonly closed = new LoadTally();
  readonly fixed = new LoadTally();
  /** The fixed rate's connections, kept from the unmeasured second into the measured ones. */
  readonly fixedRateAgent = fixedRateAgent();
  private readonly spent = { cpu: 0, databaseCpu: 0, gcPause: 0 };
  private roundTrips: Record<string, number> | null = null;

  /** Adds what was used between two readings of a closed-loop slice; NaN once a reading is missing. */
  addUsage(before: Usage, after: Usage): void {
    for (const key of ['cpu', 'databaseCpu', 'gcPause'] as const) {
      const [from, to] = [before[key], after[key]];
      this.spent[key] += from === null || to === null ? NaN : to - from;
    }
    if (before.roundTrips && after.roundTrips) {
      this.roundTrips = addRoundTrips(this.roundTrips ?? {}, before.roundTrips, after.roundTrips);
    }
  }

  measured(): Measured {
    this.fixedRateAgent.destroy();
    const closed = this.closed.result();
    const perRequest = (ms: number): number => (closed.ok === 0 ? NaN : ms / closed.ok);
    return {
      closed,
      fixed: this.fixed.result(),
      cpuMsPerRequest: perRequest(this.spent.cpu),
      databaseCpuMsPerRequest: perRequest(this.spent.databaseCpu),
      gcMsPerRequest: perRequest(this.spent.gcPause),
      roundTripsPerRequest:
        this.roundTrips &&
        Object.fromEntries(Object.entries(this.roundTrips).map(([kind, count]) => [kind, perRequest(count)])),
    };
  }
}

/**
 * One route against every target. Each is warmed up alone; then the closed loop is taken in
 * one-second slices, the targets in turn (lib/slice-order.ts), so that a gateway and
 * the baseline it is judged against are measured over the same stretch of time: this machine's
 * speed moves from one minute to the next, which contaminated ratios taken from measurements tens
 * of seconds apart. Latency at the fixed rate is a steady stream's, so each target then takes the
 * rate for a second unmeasured (after the others' slices, its key and credential caches have
 * expired) and for `--rate-seconds` measured, without a pause.
 */
async function measureRoute(
  route: Route,
  targets: Target[],
  afterSlice: () => Promise<void>,
): Promise<Record<string, Measured>> {
  const pids = targets.map((target) => target.pid);
  for (const target of targets) {
    await settle(pids);
    await probe(target.url(route), target.request(route));
    await closedLoop(target.url(route), target.request(route), {
      connections: settings.connections,
      seconds: settings.warmupSeconds,
    });
    await afterSlice();
  }
  const runs = new Map(targets.map((target) => [target, new TargetRun()]));
  await settle(pids);
  for (let slice = 0; slice < settings.seconds; slice++) {
    for (const target of targetsInTurn(targets, slice)) {
      const run = runs.get(target)!;
      const before = await usage(target);
      await closedLoop(
        target.url(route),
        target.request(route),
        { connections: settings.connections, seconds: SLICE_SECONDS },
        run.closed,
      );
      run.addUsage(before, await usage(target));
      await afterSlice();
    }
  }
  for (const target of targets) {
    const run = runs.get(target)!;
    const atRate = (seconds: number, tally?: LoadTally) =>
      fixedRate(
        target.url(route),
        target.request(route),
        { rate: settings.rate, seconds, agent: run.fixedRateAgent },
        tally,
      );
    collectRunnerGarbage();
    await atRate(LEAD_IN_SECONDS);
    await atRate(settings.rateSeconds, run.fixed);
    await afterSlice();
  }
  return Object.fromEntries(targets.map((target) => [target.name, runs.get(target)!.measured()]));
}

/** The gateway's main-thread GC pauses so far, ms; null for the other targets. */
async function gcPauseMs(target: Target): Promise<number | null> {
  if (!target.gateway) return null;
  return (await ask<Message & { ms: number }>(target.child, { type: 'gc-pause' }, 'gc-pause')).ms;
}

async function startUpstreams(): Promise<{
  upstreams: UpstreamsReady;
  simulators: ChildProcess;
  resetPipes: () => Promise<string>;
}> {
  const { child: simulators, ready } = await startChild<UpstreamsReady>(
    'upstream simulators',
    child('upstreams'),
  );
  const resetPipes = async (): Promise<string> =>
    (await ask<PipesReset>(simulators, { type: 'reset-pipes' }, 'pipes-reset')).pipeId;
  return { upstreams: ready, simulators, resetPipes };
}

/**
 * A gateway delivering its audit log to both sinks (`sinks`), as a deployment that keeps its log
 * elsewhere too would; `env` adds to or overrides the settings every benchmark gateway has.
 */
function startGateway(
  databaseUrl: string,
  logLevel: string,
  upstreams: UpstreamsReady,
  sinks: SinkReceiversReady,
  options: { build?: string; env?: NodeJS.ProcessEnv; nodeOptions?: string[] } = {},
): ReturnType<typeof startChild<GatewayReady>> {
  const { build, nodeOptions = settings.gatewayNodeOptions } = options;
  const script = build ? resolve(build, 'bench/children/gateway.js') : child('gateway');
  return startChild<GatewayReady>(`gateway (LOG_LEVEL=${logLevel}) of ${build ?? 'this build'}`, script, {
    args: [JSON.stringify(upstreams)],
    // Lets the runner read the live heap between routes; collection otherwise runs as usual.
    execArgv: ['--expose-gc', ...nodeOptions],
    env: gatewayEnv(databaseUrl, logLevel, {
      PIPES_API_URL: upstreams.pipesUrl,
      DASHBOARDS_API_URL: upstreams.dashboardsUrl,
      AUDIT_SYSLOG_URL: sinks.syslogUrl,
      AUDIT_WEBHOOK_URL: sinks.webhookUrl,
      AUDIT_WEBHOOK_SECRET: SINK_WEBHOOK_SECRET,
      ...options.env,
    }),
  });
}

/** The audit sinks' receivers (children/sink-receivers.ts). */
async function startSinkReceivers(): Promise<{ ready: SinkReceiversReady; tally: () => Promise<SinkTally> }> {
  const receivers = await startChild<SinkReceiversReady>('audit sink receivers', child('sink-receivers'));
  return {
    ready: receivers.ready,
    tally: () => ask<SinkTally>(receivers.child, { type: 'sink-tally' }, 'sink-tally'),
  };
}

// The sinks ship what was appended a second or so after it; a receiver short after this is short.
const CATCH_UP_MS = 30_000;

/** The receivers' tally once each has at least `appended` records, or as it stands after CATCH_UP_MS. */
async function caughtUp(tally: () => Promise<SinkTally>, appended: number): Promise<SinkTally> {
  const until = Date.now() + CATCH_UP_MS;
  for (;;) {
    const delivered = await tally();
    const behind = Math.min(delivered.syslogRecords, delivered.webhookRecords) < appended;
    if (!behind || Date.now() >= until) return delivered;
    await sleep(250);
  }
}

/** A proxy of the upstreams' own paths, with no auth of its own: the baseline, the stack floor. */
async function startReferenceProxy(
  name: string,
  script: string,
  upstreams: UpstreamsReady,
  options: { execArgv?: string[]; routes?: readonly string[] } = {},
): Promise<Target> {
  const proxy = await startChild<BaselineReady>(name, child(script), {
    args: [JSON.stringify(upstreams)],
    execArgv: options.execArgv,
  });
  return {
    name,
    pid: proxy.child.pid!,
    child: proxy.child,
    url: () => proxy.ready.url,
    request: (route) => loadRequest(route, route.upstreamPath),
    routes: options.routes,
  };
}

/**
 * One route's closed loop once more against one gateway, with V8's CPU profiler on, and its
 * samples put into the stages of a write (lib/stages.ts): where the gateway's CPU goes per write.
 */
async function profileStages(
  route: Route,
  target: Target,
  afterSlice: () => Promise<void>,
): Promise<StageProfile> {
  const directory = mkdtempSync(join(tmpdir(), 'gateway-stages-'));
  const path = join(directory, 'gateway.cpuprofile');
  try {
    const tally = new LoadTally();
    await settle([target.pid]);
    await ask<Message>(target.child, { type: 'profile-start', allocations: false } as Message, 'profiling');
    for (let slice = 0; slice < settings.seconds; slice++) {
      await closedLoop(
        target.url(route),
        target.request(route),
        { connections: settings.connections, seconds: SLICE_SECONDS },
        tally,
      );
      await afterSlice();
    }
    await ask<Message>(target.child, { type: 'profile-stop', path } as Message, 'profiled');
    const { busyMs, stages } = stageTimes(path);
    const writes = tally.result().ok;
    return {
      gateway: target.name,
      seconds: settings.seconds,
      writes,
      busyMsPerWrite: busyMs / writes,
      stages: Object.fromEntries(Object.entries(stages).map(([stage, ms]) => [stage, ms / writes])),
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

async function benchmark(cleanups: (() => Promise<void>)[]): Promise<void> {
  const machine = describeMachine();
  const { upstreams, simulators, resetPipes } = await startUpstreams();
  const state = { pipeId: upstreams.pipeId };
  const plan = namedInOrder(routes(state), settings.routes);
  const baseline = await startReferenceProxy(BASELINE, 'baseline', upstreams);
  const targets: Target[] = [
    {
      name: DIRECT,
      pid: simulators.pid!,
      child: simulators,
      url: (route) => (route.upstream === 'pipes' ? upstreams.pipesUrl : upstreams.dashboardsUrl),
      request: (route) =>
        loadRequest(
          route,
          route.upstreamPath,
          route.upstream === 'pipes'
            ? pipesAuthorization(upstreams.pipesKey)
            : `Bearer ${upstreams.dashboardsToken}`,
        ),
    },
    baseline,
  ];
  if (flags['stack-floor']) {
    targets.push(
      await startReferenceProxy(STACK_FLOOR, 'stack-floor', upstreams, {
        // Run as the gateways are, so that the two differ only in what the gateway does per request.
        execArgv: settings.gatewayNodeOptions,
        routes: STACK_FLOOR_ROUTES,
      }),
    );
  }
  const addGateway = async (
    name: string,
    logLevel: string,
    options: { build?: string; env?: NodeJS.ProcessEnv; nodeOptions?: string[]; routes?: string[] } = {},
  ): Promise<void> => {
    // Each gateway is a deployment of its own, as a lone replica holds every lease: it alone ships
    // its sinks and runs its timers, so no gateway of a run is spared the others' background work.
    const database = await freshDatabase('pipes_gateway_bench');
    cleanups.push(database.drop);
    const sinks = await startSinkReceivers();
    const gateway = await startGateway(database.url, logLevel, upstreams, sinks.ready, options);
    targets.push({
      name,
      url: () => gateway.ready.url,
      request: (route) => loadRequest(route, route.gatewayPath, `Bearer ${gateway.ready.key}`),
      pid: gateway.child.pid!,
      child: gateway.child,
      gateway: { databaseUrl: database.url, sinkTally: sinks.tally },
      routes: options.routes,
    });
  };
  for (const logLevel of settings.logLevels) {
    await addGateway(`gateway (${logLevel})`, logLevel);
    if (flags.compare) {
      await addGateway(comparedName(logLevel), logLevel, {
        build: flags.compare,
        nodeOptions: settings.compareNodeOptions,
      });
    }
  }
  // What a cached read costs when every read is its own upstream call.
  const cachedRoutes = plan.filter((route) => route.cached).map((route) => route.name);
  if (cachedRoutes.length > 0) {
    const logLevel = settings.logLevels[settings.logLevels.length - 1];
    await addGateway(cacheOffName(logLevel), logLevel, {
      env: { PIPE_READ_CACHE_MS: 'off' },
      routes: cachedRoutes,
    });
  }

  // What the gateways hold before any load: the peak under load is compared with this.
  const rssAtStartMb = Object.fromEntries(
    targets
      .filter((target) => target.gateway)
      .map((target) => [target.name, (rssBytes(target.pid) ?? NaN) / 2 ** 20]),
  );
  console.log(`gateway node options: ${settings.gatewayNodeOptions.join(' ')}`);
  if (settings.compareNodeOptions) {
    console.log(`compared gateway node options: ${settings.compareNodeOptions.join(' ')}`);
  }
  console.log(
    `gateway RSS after start: ${Object.entries(rssAtStartMb)
      .map(([name, mb]) => `${name} ${Math.round(mb)} MB`)
      .join('; ')}`,
  );
  const rounds = new Map<string, RoundResult[]>(plan.map((route) => [route.name, []]));
  // Every create is stored by the simulator; dropping them keeps later slices alike.
  const afterSliceOf = (route: Route) => async (): Promise<void> => {
    if (route.kind === 'create') state.pipeId = await resetPipes();
  };
  for (let round = 1; round <= settings.rounds; round++) {
    for (const route of plan) {
      console.log(`round ${round}/${settings.rounds}: ${route.name}`);
      const measured = targets.filter((target) => !target.routes || target.routes.includes(route.name));
      const gateways = measured.filter((target) => target.gateway);
      const sampler = new RssSampler(gateways.map((target) => target.pid));
      const result: RoundResult = {
        targets: await measureRoute(route, measured, afterSliceOf(route)),
        rssPeakMb: {},
        heapUsedMb: {},
      };
      const peaks = sampler.stop();
      for (const target of gateways) {
        result.rssPeakMb[target.name] = peaks.get(target.pid) ?? NaN;
        const memory = await ask<Message & NodeJS.MemoryUsage>(target.child, { type: 'memory' }, 'memory');
        result.heapUsedMb[target.name] = memory.heapUsed / 2 ** 20;
      }
      rounds.get(route.name)!.push(result);
    }
  }

  const summaries: RouteSummary[] = plan.map((route) =>
    summarise(route.name, route.kind, rounds.get(route.name)!),
  );
  const lastGateway = targets.find(
    (target) => target.name === `gateway (${settings.logLevels[settings.logLevels.length - 1]})`,
  )!;
  const writes = plan.filter((route) => route.kind === 'write' || route.kind === 'create');
  if (!flags['skip-stages']) {
    for (const [index, route] of plan.entries()) {
      if (!writes.includes(route)) continue;
      console.log(`where a write's CPU goes: ${route.name}`);
      summaries[index].stages = await profileStages(route, lastGateway, afterSliceOf(route));
    }
  }
  const appendReplay = writes.length > 0 && SERVER_IS_LOCAL ? await replayLargestAppend(lastGateway) : null;
  const auditSinks: Record<string, SinkTally & { appended: number }> = {};
  for (const { name, gateway } of targets) {
    if (gateway === undefined) continue;
    const appended = await countAuditEvents(gateway.databaseUrl);
    auditSinks[name] = { appended, ...(await caughtUp(gateway.sinkTally, appended)) };
  }
  for (const summary of summaries) console.log(formatRoute(summary, settings));
  if (appendReplay) console.log(formatAppendReplay(lastGateway.name, appendReplay));
  console.log('\naudit sinks: events appended; delivered, with the signed checkpoints');
  for (const [name, { appended, syslogRecords, webhookRecords }] of Object.entries(auditSinks)) {
    console.log(`  ${name}: ${appended}; syslog ${syslogRecords}, webhook ${webhookRecords} records`);
  }
  const checks = checkTargets(summaries);
  console.log(formatChecks(checks));
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(
    join(RESULTS, 'latest.json'),
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        machine,
        settings,
        rssAtStartMb,
        appendReplay,
        auditSinks,
        routes: summaries,
        targets: checks,
        rounds: Object.fromEntries(rounds),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwritten to ${join(RESULTS, 'latest.json')}`);
}

/** The audit append with the most events a gateway sent in the run, replayed on the database it wrote to. */
async function replayLargestAppend(target: Target): Promise<AppendReplay | null> {
  const { append, appendTexts } = await ask<LargestAppend>(
    target.child,
    { type: 'largest-append' },
    'largest-append',
  );
  return append && replayAppend(target.gateway!.databaseUrl, append, appendTexts);
}

/**
 * One route against one gateway with V8's CPU (or allocation) profiler on during the measured run
 * only. Routes named after it are served first, unprofiled, so that the profile can be of a gateway
 * whose code has run other routes too, as in production, rather than of one warmed on one route.
 */
async function profile(databaseUrl: string, cleanups: (() => Promise<void>)[]): Promise<void> {
  const { upstreams } = await startUpstreams();
  const sinks = await startSinkReceivers();
  const logLevel = settings.logLevels[settings.logLevels.length - 1];
  const gateway = await startGateway(databaseUrl, logLevel, upstreams, sinks.ready);
  const [route, ...before] = namedInOrder(routes({ pipeId: upstreams.pipeId }), settings.routes);
  const url = gateway.ready.url;
  const authorization = `Bearer ${gateway.ready.key}`;
  for (const other of before) {
    const otherRequest = loadRequest(other, other.gatewayPath, authorization);
    await probe(url, otherRequest);
    await closedLoop(url, otherRequest, {
      connections: settings.connections,
      seconds: settings.warmupSeconds,
    });
  }
  const request = loadRequest(route, route.gatewayPath, authorization);
  await probe(url, request);
  await closedLoop(url, request, { connections: settings.connections, seconds: settings.warmupSeconds });
  let path = flags['profile-out'];
  if (path === undefined) {
    const directory = mkdtempSync(join(tmpdir(), 'gateway-profile-'));
    cleanups.push(() => Promise.resolve(rmSync(directory, { recursive: true, force: true })));
    path = join(directory, flags.allocations ? 'gateway.heapprofile' : 'gateway.cpuprofile');
  }
  await ask<Message>(
    gateway.child,
    { type: 'profile-start', allocations: flags.allocations } as Message,
    'profiling',
  );
  const result = await closedLoop(url, request, {
    connections: settings.connections,
    seconds: settings.seconds,
  });
  await ask<Message>(gateway.child, { type: 'profile-stop', path } as Message, 'profiled');
  await stopChild(gateway.child);
  console.log(`${route.name}, gateway (LOG_LEVEL=${logLevel}), profiler on: ${Math.round(result.rps)} req/s`);
  const summary = flags.allocations
    ? summariseAllocations(path, result.ok + result.failed)
    : summariseProfile(path);
  console.log(formatProfile(summary));
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(
    join(RESULTS, 'profile.json'),
    `${JSON.stringify({ at: new Date().toISOString(), logLevel, rps: result.rps, ...summary }, null, 2)}\n`,
  );
}

runMain(async (cleanups) => {
  // An unknown route name stops the run before anything is started.
  namedInOrder(routes({ pipeId: '' }), settings.routes);
  if (flags.profile) {
    const database = await freshDatabase('pipes_gateway_bench');
    cleanups.push(database.drop);
    await profile(database.url, cleanups);
  } else {
    await benchmark(cleanups);
  }
});
