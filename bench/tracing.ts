import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OtlpSinkTally } from './children/otlp-sink';
import { freshDatabase, gatewayEnv } from './lib/database';
import { closedLoop, LoadTally, type LoadRequest } from './lib/load';
import { describeMachine } from './lib/machine';
import { commandOptions, namedInOrder } from './lib/options';
import { formatProfile, summariseProfile } from './lib/profile';
import { ask, cpuMs, productionLaunch, runMain, settle, startChild } from './lib/processes';
import type { Message } from './lib/processes';
import { targetsInTurn } from './lib/slice-order';
import { DASHBOARD_IDS, pipesPath, type GatewayReady, type UpstreamsReady } from './lib/scenario';
import { median } from './lib/stats';

// A traced gateway keeps at least this share of the throughput of one that does not trace.
const TARGET = 0.85;
const SLICE_SECONDS = 1;
const RESULTS = resolve(__dirname, '../../bench/results');
const child = (name: string): string => join(__dirname, 'children', `${name}.js`);
// Preloaded into both gateways, as main.ts imports it first: it starts the SDK when an endpoint is set.
const TRACING_START = resolve(__dirname, '../src/tracing/register.js');

const flags = commandOptions('bench:tracing', {
  rounds: { type: 'string', default: '1' },
  seconds: { type: 'string', default: '6' },
  warmup: { type: 'string', default: '3' },
  connections: { type: 'string', default: '50' },
  'log-level': { type: 'string', default: 'info' },
  /** Comma-separated read routes, measured in that order; all five when left out. */
  routes: { type: 'string' },
  /** The share of new traces sampled: 1 traces every request (always_on), less a ratio of them. */
  'sample-ratio': { type: 'string', default: '1' },
  /** A folder for both gateways' CPU profiles over the run (tracing-off/-on.cpuprofile), summarised. */
  'profile-out': { type: 'string' },
});
const settings = {
  rounds: Number(flags.rounds),
  seconds: Number(flags.seconds),
  warmupSeconds: Number(flags.warmup),
  connections: Number(flags.connections),
  logLevel: flags['log-level'],
  sampleRatio: Number(flags['sample-ratio']),
};

interface ReadRoute {
  name: string;
  path: () => string;
}

function readRoutes(pipeId: string): ReadRoute[] {
  let next = 0;
  return [
    { name: 'GET settings', path: () => pipesPath(pipeId, '/settings') },
    { name: 'GET pipe', path: () => pipesPath(pipeId) },
    { name: 'GET pipes', path: () => pipesPath() },
    { name: 'GET dashboard', path: () => `/v1/dashboards/${DASHBOARD_IDS[next++ % DASHBOARD_IDS.length]}` },
    { name: 'GET dashboards', path: () => '/v1/dashboards' },
  ];
}

interface Gateway {
  name: 'off' | 'on';
  url: string;
  pid: number;
  key: string;
  child: ChildProcess;
}

interface Measured {
  rps: number;
  cpuMsPerRequest: number;
  failed: number;
}

/**
 * One route on both gateways, in one-second slices taken in turn (lib/slice-order.ts),
 * so that both are measured over the same stretch of this machine's moving pace (bench/README.md).
 */
async function measureRoute(
  route: ReadRoute,
  gateways: Gateway[],
): Promise<Record<Gateway['name'], Measured>> {
  const request = (gateway: Gateway): LoadRequest => ({
    method: 'GET',
    path: route.path,
    headers: { authorization: `Bearer ${gateway.key}` },
  });
  const pids = gateways.map((gateway) => gateway.pid);
  for (const gateway of gateways) {
    await settle(pids);
    await closedLoop(gateway.url, request(gateway), {
      connections: settings.connections,
      seconds: settings.warmupSeconds,
    });
  }
  const tallies = new Map(gateways.map((gateway) => [gateway, new LoadTally()]));
  const cpu = new Map(gateways.map((gateway) => [gateway, 0]));
  await settle(pids);
  for (let slice = 0; slice < settings.seconds; slice++) {
    for (const gateway of targetsInTurn(gateways, slice)) {
      const before = cpuMs(gateway.pid);
      await closedLoop(
        gateway.url,
        request(gateway),
        { connections: settings.connections, seconds: SLICE_SECONDS },
        tallies.get(gateway),
      );
      cpu.set(gateway, cpu.get(gateway)! + cpuMs(gateway.pid) - before);
    }
  }
  const measured = (gateway: Gateway): Measured => {
    const result = tallies.get(gateway)!.result();
    return { rps: result.rps, cpuMsPerRequest: cpu.get(gateway)! / result.ok, failed: result.failed };
  };
  return { off: measured(gateways[0]), on: measured(gateways[1]) };
}

async function startGateway(
  name: Gateway['name'],
  databaseUrl: string,
  upstreams: UpstreamsReady,
  tracing: NodeJS.ProcessEnv,
): Promise<Gateway> {
  const { child: gatewayChild, ready } = await startChild<GatewayReady>(
    `gateway (tracing ${name})`,
    child('gateway'),
    {
      args: [JSON.stringify(upstreams)],
      execArgv: ['--require', TRACING_START, ...productionLaunch().nodeOptions],
      env: gatewayEnv(databaseUrl, settings.logLevel, {
        PIPES_API_URL: upstreams.pipesUrl,
        DASHBOARDS_API_URL: upstreams.dashboardsUrl,
        ...tracing,
      }),
    },
  );
  return { name, url: ready.url, pid: gatewayChild.pid!, key: ready.key, child: gatewayChild };
}

const format = (value: number, digits = 0): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

runMain(async (cleanups) => {
  if (!(settings.sampleRatio > 0 && settings.sampleRatio <= 1))
    throw new Error(`--sample-ratio must be above 0 and at most 1 (got ${flags['sample-ratio']})`);
  const everyRequest = settings.sampleRatio === 1;
  const sampler: NodeJS.ProcessEnv = everyRequest
    ? { OTEL_TRACES_SAMPLER: 'always_on' }
    : {
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: String(settings.sampleRatio),
      };
  const sampled = everyRequest
    ? 'every request sampled'
    : `${settings.sampleRatio * 100}% of new traces sampled`;
  const database = await freshDatabase('pipes_gateway_bench');
  cleanups.push(database.drop);
  const { ready: upstreams } = await startChild<UpstreamsReady>('upstream simulators', child('upstreams'));
  const sink = await startChild<Message & { url: string }>('OTLP sink', child('otlp-sink'));
  const routes = namedInOrder(readRoutes(upstreams.pipeId), flags.routes?.split(','));
  const gateways = [
    await startGateway('off', database.url, upstreams, {}),
    await startGateway('on', database.url, upstreams, {
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.ready.url,
      ...sampler,
    }),
  ];
  const rounds = new Map<string, Record<Gateway['name'], Measured>[]>(
    routes.map((route) => [route.name, []]),
  );
  const profiles = flags['profile-out'] === undefined ? undefined : resolve(flags['profile-out']);
  if (profiles !== undefined) {
    mkdirSync(profiles, { recursive: true });
    for (const gateway of gateways)
      await ask(gateway.child, { type: 'profile-start', allocations: false } as Message, 'profiling');
  }
  for (let round = 1; round <= settings.rounds; round++) {
    for (const route of routes) {
      console.log(`round ${round}/${settings.rounds}: ${route.name}`);
      rounds.get(route.name)!.push(await measureRoute(route, gateways));
    }
  }
  if (profiles !== undefined) {
    for (const gateway of gateways) {
      const path = join(profiles, `tracing-${gateway.name}.cpuprofile`);
      await ask(gateway.child, { type: 'profile-stop', path } as Message, 'profiled');
      console.log(`\nwhere the gateway with tracing ${gateway.name} spent its CPU (${path}):`);
      console.log(formatProfile(summariseProfile(path)));
    }
  }
  const exported = await ask<OtlpSinkTally>(sink.child, { type: 'otlp-tally' }, 'otlp-tally');

  const rows = routes.map((route) => {
    const measured = rounds.get(route.name)!;
    const ratios = measured.map((each) => each.on.rps / each.off.rps);
    const ratio = median(ratios);
    return {
      route: route.name,
      offRps: median(measured.map((each) => each.off.rps)),
      onRps: median(measured.map((each) => each.on.rps)),
      ratio,
      ratios,
      offCpuMs: median(measured.map((each) => each.off.cpuMsPerRequest)),
      onCpuMs: median(measured.map((each) => each.on.cpuMsPerRequest)),
      failed: measured.reduce((sum, each) => sum + each.off.failed + each.on.failed, 0),
      // The target is for every request sampled; a ratio sampler's run is there to compare with it.
      met: everyRequest ? ratio >= TARGET : null,
    };
  });
  console.log(
    `\nread throughput with tracing on (${sampled}, spans exported over OTLP to a local sink ` +
      `that discards them) over tracing off; LOG_LEVEL=${settings.logLevel}, ${settings.connections} connections\n`,
  );
  console.log('| route | off req/s | on req/s | on/off | CPU ms/req off / on | target | failed |');
  console.log('| --- | ---: | ---: | --- | --- | --- | ---: |');
  for (const row of rows) {
    const perRound =
      row.ratios.length > 1 ? ` (${row.ratios.map((ratio) => ratio.toFixed(2)).join(', ')})` : '';
    console.log(
      `| ${row.route} | ${format(row.offRps)} | ${format(row.onRps)} | ${row.ratio.toFixed(2)}${perRound} | ` +
        `${format(row.offCpuMs, 3)} / ${format(row.onCpuMs, 3)} | ≥ ${TARGET.toFixed(2)}: ${row.met === null ? 'for every request sampled' : row.met ? 'met' : 'NOT MET'} | ${row.failed} |`,
    );
  }
  console.log(`\nthe sink took ${exported.exports} exports, ${format(exported.bytes / 2 ** 20, 1)} MiB`);
  mkdirSync(RESULTS, { recursive: true });
  const path = join(RESULTS, 'tracing.json');
  writeFileSync(
    path,
    `${JSON.stringify({ at: new Date().toISOString(), machine: describeMachine(), settings, target: TARGET, routes: rows, exported }, null, 2)}\n`,
  );
  console.log(`written to ${path}`);
});
