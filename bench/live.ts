/**
 * `npm run bench:live`: a service followed by many event streams while many clients poll one of
 * its pipes. Measures the upstream calls per second the service costs, the delay from a change
 * made upstream to its event, and the gateways' resident size; once with one gateway, once with
 * two sharing Redis (still one poller between them).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDashboardsSimulator, startPipesSimulator } from '../sandbox';
import { freshDatabase, gatewayEnv } from './lib/database';
import { describeMachine } from './lib/machine';
import { commandOptions } from './lib/options';
import { productionLaunch, RssSampler, runMain, startChild } from './lib/processes';
import { GatewayReady, PIPE_BODY, pipesAuthorization, pipesPath, UpstreamsReady } from './lib/scenario';
import { percentile } from './lib/stats';

const RESULTS = resolve(__dirname, '../../bench/results');
const flags = commandOptions('bench:live', {
  subscribers: { type: 'string', default: '1000' },
  pollers: { type: 'string', default: '200' },
  seconds: { type: 'string', default: '30' },
  'redis-url': { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
});
const settings = {
  subscribers: Number(flags.subscribers),
  pollers: Number(flags.pollers),
  seconds: Number(flags.seconds),
  pollMs: 2_000,
  pipesApiRateLimit: '10/10s',
};

interface Outcome {
  replicas: number;
  upstreamCallsPerSecond: number;
  listCallsPerSecond: number;
  changes: number;
  eventDelayMs: { p50: number; p99: number; max: number; missed: number };
  pollsPerSecond: number;
  pollFailures: number;
  peakRssMb: number[];
}

runMain(async (cleanups) => {
  const machine = describeMachine();
  const pipesKey = { keyId: 'bench-live', keySecret: `live-${Date.now()}` };
  const pipes = await startPipesSimulator({ keys: [pipesKey], maxRecordedRequests: 1_000_000 });
  const dashboards = await startDashboardsSimulator({ tokens: ['bench-live-token'] });
  cleanups.push(
    () => pipes.close(),
    () => dashboards.close(),
  );
  const create = await fetch(`${pipes.url}${pipesPath()}`, {
    method: 'POST',
    headers: { authorization: pipesAuthorization(pipesKey), 'content-type': 'application/json' },
    body: PIPE_BODY,
  });
  const pipeId = ((await create.json()) as { result: { id: string } }).result.id;
  const upstreams: UpstreamsReady = {
    type: 'ready',
    pipesUrl: pipes.url,
    dashboardsUrl: dashboards.url,
    pipesKey,
    dashboardsToken: 'bench-live-token',
    pipeId,
  };

  const outcomes: Outcome[] = [];
  for (const replicas of [1, 2]) {
    const database = await freshDatabase(`pipes_gateway_live_${replicas}`);
    cleanups.push(database.drop);
    const env = gatewayEnv(database.url, 'warn', {
      PIPES_API_URL: pipes.url,
      DASHBOARDS_API_URL: dashboards.url,
      PIPES_API_RATE_LIMIT: settings.pipesApiRateLimit,
      PIPE_READ_CACHE_MS: '2000',
      PIPE_EVENTS_POLL_MS: String(settings.pollMs),
      PIPE_STREAMS_PER_KEY: String(settings.subscribers),
      PIPE_STREAMS_PER_TENANT: String(settings.subscribers),
      ...(replicas > 1 ? { REDIS_URL: flags['redis-url'] } : {}),
    });
    const gateways: { child: { pid?: number }; ready: GatewayReady }[] = [];
    for (let index = 0; index < replicas; index++) {
      gateways.push(
        await startChild<GatewayReady>(`gateway ${index + 1}`, join(__dirname, 'children', 'gateway.js'), {
          args: [JSON.stringify(upstreams)],
          env,
          execArgv: productionLaunch().nodeOptions,
        }),
      );
    }
    // Every replica serves the first one's tenant: they share the database.
    const { key } = gateways[0].ready;
    outcomes.push(await measure(replicas, gateways, key, pipeId, pipes));
    for (const gateway of gateways) (gateway.child as { kill(): void }).kill();
  }

  for (const outcome of outcomes) {
    console.log(
      `\n${outcome.replicas} replica(s): ${settings.subscribers} streams, ${settings.pollers} clients polling one pipe 10×/s\n` +
        `  upstream calls ${outcome.upstreamCallsPerSecond.toFixed(2)}/s (list ${outcome.listCallsPerSecond.toFixed(2)}/s) ` +
        `for ${outcome.pollsPerSecond.toFixed(0)} reads/s (${outcome.pollFailures} failed)   target ≤ 1/s: ${outcome.upstreamCallsPerSecond <= 1 ? 'met' : 'NOT MET'}\n` +
        `  event delay over ${outcome.changes} changes × ${settings.subscribers} streams: p50 ${outcome.eventDelayMs.p50.toFixed(0)} ms  ` +
        `p99 ${outcome.eventDelayMs.p99.toFixed(0)} ms  max ${outcome.eventDelayMs.max.toFixed(0)} ms  missed ${outcome.eventDelayMs.missed}   ` +
        `target p99 ≤ ${settings.pollMs + 250} ms: ${outcome.eventDelayMs.p99 <= settings.pollMs + 250 ? 'met' : 'NOT MET'}\n` +
        `  gateway peak RSS ${outcome.peakRssMb.map((mb) => `${mb.toFixed(0)} MB`).join(', ')}   target ≤ 250 MB: ${Math.max(...outcome.peakRssMb) <= 250 ? 'met' : 'NOT MET'}`,
    );
  }
  if (outcomes.length === 2) {
    console.log(
      `\ntwo replicas / one: upstream list calls ×${(outcomes[1].listCallsPerSecond / outcomes[0].listCallsPerSecond).toFixed(2)} (one poller: about ×1)`,
    );
  }
  mkdirSync(RESULTS, { recursive: true });
  const file = join(RESULTS, 'live.json');
  writeFileSync(
    file,
    `${JSON.stringify({ at: new Date().toISOString(), machine, settings, outcomes }, null, 2)}\n`,
  );
  console.log(`\nwritten to ${file}`);
});

async function measure(
  replicas: number,
  gateways: { child: { pid?: number }; ready: GatewayReady }[],
  key: string,
  pipeId: string,
  pipes: Awaited<ReturnType<typeof startPipesSimulator>>,
): Promise<Outcome> {
  const agent = new Agent({ keepAlive: true, maxSockets: settings.pollers + settings.subscribers + 16 });
  const headers = { authorization: `Bearer ${key}` };
  const rss = new RssSampler(gateways.map((gateway) => gateway.child.pid!));
  const changes: { tag: string; at: number }[] = [];

  // When each subscriber saw the change numbered by the state it reports.
  const seen: Map<string, number>[] = [];
  const streams: (() => void)[] = [];
  for (let index = 0; index < settings.subscribers; index++) {
    const base = gateways[index % gateways.length].ready.url;
    const arrivals = new Map<string, number>();
    seen.push(arrivals);
    streams.push(await follow(`${base}${pipesPath()}/events?pipeId=${pipeId}`, headers, agent, arrivals));
  }
  await sleep(2 * settings.pollMs);

  let stop = false;
  let polls = 0;
  let pollFailures = 0;
  const pollers = Array.from({ length: settings.pollers }, async (_, index) => {
    const url = `${gateways[index % gateways.length].ready.url}${pipesPath(pipeId)}`;
    while (!stop) {
      const started = performance.now();
      const status = await get(url, headers, agent);
      polls++;
      if (status !== 200) pollFailures++;
      await sleep(Math.max(0, 100 - (performance.now() - started)));
    }
  });

  // Changes made upstream (the provider's console): the stream learns of them by polling.
  pipes.clearRequests();
  const started = performance.now();
  const states = ['Stopped', 'Running', 'Paused', 'Failed'] as const;
  let count = 0;
  while (performance.now() - started < settings.seconds * 1000) {
    const state = states[count++ % states.length];
    pipes.setPipeState(pipeId, state);
    changes.push({ tag: `${state}#${count}`, at: performance.now() });
    await sleep(settings.pollMs * 1.5 + Math.random() * settings.pollMs);
  }
  const elapsedSeconds = (performance.now() - started) / 1000;
  const sent = pipes.requests();
  stop = true;
  await Promise.all(pollers);
  await sleep(settings.pollMs + 500);
  for (const close of streams) close();
  agent.destroy();
  const peaks = rss.stop();

  // A subscriber's first arrival of a state after its change is that change's event.
  const delays: number[] = [];
  let missed = 0;
  for (const arrivals of seen) {
    for (const change of changes) {
      const at = arrivals.get(change.tag);
      if (at === undefined) missed++;
      else delays.push(at - change.at);
    }
  }
  const sorted = Float64Array.from(delays).sort();
  return {
    replicas,
    upstreamCallsPerSecond: sent.length / elapsedSeconds,
    listCallsPerSecond:
      sent.filter((call) => call.method === 'GET' && call.path.endsWith('/pipes')).length / elapsedSeconds,
    changes: changes.length,
    eventDelayMs: {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? NaN,
      missed,
    },
    pollsPerSecond: polls / elapsedSeconds,
    pollFailures,
    peakRssMb: gateways.map((gateway) => peaks.get(gateway.child.pid!) ?? NaN),
  };

  /** Numbers state events in order, so the n-th change's state is told from an earlier one's. */
  function follow(
    url: string,
    headers: Record<string, string>,
    agent: Agent,
    arrivals: Map<string, number>,
  ): Promise<() => void> {
    return new Promise((done, fail) => {
      const req = request(url, { headers, agent }, (response) => {
        if (response.statusCode !== 200) {
          fail(new Error(`stream answered ${response.statusCode}`));
          return;
        }
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (!block.includes('event: pipe.state')) continue;
            const state = /"state":"([A-Za-z]+)"/.exec(block)?.[1];
            // The change this is: the first one of this state not yet seen by this subscriber.
            const change = changes.find(
              (made) => made.tag.startsWith(`${state}#`) && !arrivals.has(made.tag),
            );
            if (change) arrivals.set(change.tag, performance.now());
          }
        });
        done(() => req.destroy());
      });
      req.on('error', () => undefined);
      req.end();
    });
  }
}

function get(url: string, headers: Record<string, string>, agent: Agent): Promise<number> {
  return new Promise((done) => {
    const req = request(url, { headers, agent }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode ?? 0));
    });
    req.on('error', () => done(0));
    req.end();
  });
}
