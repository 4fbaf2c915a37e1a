import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { AuditChainKeys } from '../src/crypto/audit-chain-keys';
import { parseKeyRing } from '../src/crypto/key-ring';
import { RSYSLOGD, Rsyslog } from '../test/support/rsyslog';
import type { WebhookReceiverReady } from './children/webhook-receiver';
import { freshDatabase, gatewayEnv } from './lib/database';
import { closedLoop, fixedRate } from './lib/load';
import type { LoadRequest, LoadResult } from './lib/load';
import { describeMachine } from './lib/machine';
import { commandOptions } from './lib/options';
import {
  ask,
  cpuMs,
  productionLaunch,
  rssBytes,
  RssSampler,
  runMain,
  settle,
  startChild,
  stopChild,
} from './lib/processes';
import type { Message } from './lib/processes';
import { formatProfile, summariseProfile } from './lib/profile';
import { Receipts } from './lib/receipts';
import type { LagSummary, ReceiptCounts } from './lib/receipts';
import { DASHBOARD_BODY, DASHBOARD_IDS } from './lib/scenario';
import type { GatewayReady, UpstreamsReady } from './lib/scenario';
import { seedAudit } from './lib/seed';
import { SyslogTail } from './lib/syslog-tail';

const RESULTS = resolve(__dirname, '../../bench/results');
const child = (name: string): string => join(__dirname, 'children', `${name}.js`);

const TARGETS = {
  closedLoopWritesPerSecond: 500,
  addedCpuMsPerWrite: 0.1,
  lagP99Seconds: 2,
  backlogEventsPerSecond: 5_000,
  catchUpSeconds: 60,
  rssMb: 200,
};
// How often the runner reads the sinks' state from the gateway while it waits on them.
const STATE_POLL_MS = 100;
// Writes go on this long before the sink goes down, and after it returns, in the outage.
const OUTAGE_LEAD_SECONDS = 5;
// Tenants the backlog is spread over: the shipper takes each in turn.
const BACKLOG_TENANTS = 4;

const flags = commandOptions('bench:sinks', {
  /** Seconds of closed loop per gateway, after the warm-up. */
  seconds: { type: 'string', default: '10' },
  warmup: { type: 'string', default: '3' },
  connections: { type: 'string', default: '50' },
  /** Writes per second of the fixed-rate stream: CPU per write and delivery lag. */
  rate: { type: 'string', default: '500' },
  'rate-seconds': { type: 'string', default: '10' },
  /** Events written while both receivers are down, then shipped. */
  backlog: { type: 'string', default: '50000' },
  /** Seconds the syslog receiver is down while writes go on; 600 is the target's ten minutes. */
  outage: { type: 'string', default: '30' },
  'outage-rate': { type: 'string', default: '100' },
  /** A CPU profile of the gateway while it ships the backlog, kept here (a temporary file otherwise). */
  'profile-out': { type: 'string' },
  /** Profile the backlog's shipping and print where the gateway's CPU went. */
  profile: { type: 'boolean', default: false },
  /** Which of writes, backlog and outage to run, comma-separated. */
  phases: { type: 'string', default: 'writes,backlog,outage' },
});
const settings = {
  seconds: Number(flags.seconds),
  warmupSeconds: Number(flags.warmup),
  connections: Number(flags.connections),
  rate: Number(flags.rate),
  rateSeconds: Number(flags['rate-seconds']),
  backlog: Number(flags.backlog),
  outageSeconds: Number(flags.outage),
  outageRate: Number(flags['outage-rate']),
};

type SinkKind = 'syslog' | 'webhook';
const SINKS: SinkKind[] = ['syslog', 'webhook'];

interface SinkState {
  kind: SinkKind;
  eventsBehind: number;
  secondsBehind: number;
  lastError: string | null;
}

interface Gateway {
  name: string;
  ready: GatewayReady;
  pid: number;
  child: ChildProcess;
}

/** What the two receivers were delivered, read the same way. */
interface ReceiverSide {
  syslog: SyslogTail;
  webhook: Awaited<ReturnType<typeof startChild<WebhookReceiverReady>>>;
}

function startGateway(
  name: string,
  databaseUrl: string,
  upstreams: UpstreamsReady,
  env: NodeJS.ProcessEnv,
): Promise<Gateway> {
  return startChild<GatewayReady>(name, child('gateway'), {
    args: [JSON.stringify(upstreams)],
    execArgv: productionLaunch().nodeOptions,
    env: gatewayEnv(databaseUrl, 'info', {
      PIPES_API_URL: upstreams.pipesUrl,
      DASHBOARDS_API_URL: upstreams.dashboardsUrl,
      ...env,
    }),
  }).then(({ child: process, ready }) => ({ name, ready, pid: process.pid!, child: process }));
}

/** The write measured: a dashboard replaced (read, compare, version, two audit events, upstream write). */
function writes(gateway: Gateway): LoadRequest {
  let next = 0;
  return {
    method: 'PUT',
    path: () => `/v1/dashboards/${DASHBOARD_IDS[next++ % DASHBOARD_IDS.length]}`,
    headers: { authorization: `Bearer ${gateway.ready.key}`, 'content-type': 'application/json' },
    body: DASHBOARD_BODY,
  };
}

async function probe(gateway: Gateway): Promise<void> {
  const request = writes(gateway);
  const response = await fetch(`${gateway.ready.url}${request.path()}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  if (!response.ok)
    throw new Error(`${gateway.name}: a write answered ${response.status}: ${await response.text()}`);
}

async function platformCall(gateway: Gateway, adminToken: string, path: string, body?: unknown) {
  const response = await fetch(`${gateway.ready.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function sinkStates(gateway: Gateway, adminToken: string): Promise<Record<SinkKind, SinkState>> {
  const { sinks } = (await platformCall(gateway, adminToken, '/v1/admin/audit-sinks')) as {
    sinks: SinkState[];
  };
  return Object.fromEntries(sinks.map((sink) => [sink.kind, sink])) as Record<SinkKind, SinkState>;
}

/** Waits until `done` holds of the sinks' state; answers when it did (Date.now()). */
async function untilSinks(
  gateway: Gateway,
  adminToken: string,
  what: string,
  done: (states: Record<SinkKind, SinkState>) => boolean,
  timeoutMs: number,
): Promise<number> {
  for (const deadline = Date.now() + timeoutMs; ;) {
    const states = await sinkStates(gateway, adminToken);
    if (done(states)) return Date.now();
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(states)}`);
    await sleep(STATE_POLL_MS);
  }
}

const everyDelivered = (states: Record<SinkKind, SinkState>): boolean =>
  SINKS.every((kind) => states[kind].eventsBehind === 0);

async function webhookReceipts(receivers: ReceiverSide): Promise<ReceiptCounts & { badSignatures: number }> {
  return ask<Message & ReceiptCounts & { badSignatures: number }>(
    receivers.webhook.child,
    { type: 'receipts' },
    'receipts',
  );
}

/** Events the database holds, by tenant. */
async function storedEvents(databaseUrl: string): Promise<Record<string, number>> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ tenant_id: string; count: number }>(
      'SELECT tenant_id::text, count(*)::int AS count FROM audit_events GROUP BY tenant_id',
    );
    return Object.fromEntries(rows.map((row) => [row.tenant_id, row.count]));
  } finally {
    await client.end();
  }
}

/** Stored events a receiver never got: every event is stored once and delivered at least once. */
function lost(stored: Record<string, number>, received: ReceiptCounts): number {
  return Object.entries(stored).reduce(
    (sum, [tenantId, count]) => sum + count - Math.min(count, received.distinct[tenantId] ?? 0),
    0,
  );
}

/** Until rsyslog's file has stopped growing for a second: what it took is all written. */
async function syslogSettled(syslog: SyslogTail): Promise<void> {
  for (let last = -1, deadline = Date.now() + 30_000; Date.now() < deadline;) {
    syslog.read();
    const { sinceCount, repeats } = syslog.receipts.counts();
    if (sinceCount + repeats === last) return;
    last = sinceCount + repeats;
    await sleep(1000);
  }
}

interface ClosedLoopResult {
  writesPerSecond: number;
  p99Ms: number;
  failed: number;
}

async function measureClosedLoop(gateway: Gateway): Promise<ClosedLoopResult> {
  const result = await closedLoop(gateway.ready.url, writes(gateway), {
    connections: settings.connections,
    seconds: settings.seconds,
  });
  return { writesPerSecond: result.rps, p99Ms: result.p99, failed: result.failed };
}

interface FixedRateResult {
  writes: number;
  failed: number;
  cpuMsPerWrite: number;
}

/**
 * The fixed-rate stream against one gateway; its CPU is counted until its sinks have delivered
 * every event the stream wrote (`drained`), so that shipping them is in the figure.
 */
async function measureFixedRate(gateway: Gateway, drained: () => Promise<unknown>): Promise<FixedRateResult> {
  await settle([gateway.pid]);
  const before = cpuMs(gateway.pid);
  const result: LoadResult = await fixedRate(gateway.ready.url, writes(gateway), {
    rate: settings.rate,
    seconds: settings.rateSeconds,
  });
  await drained();
  return {
    writes: result.ok,
    failed: result.failed,
    cpuMsPerWrite: (cpuMs(gateway.pid) - before) / result.ok,
  };
}

interface BacklogResult {
  events: number;
  /** Events per second from the first record received after the receivers returned to the last. */
  eventsPerSecond: Record<SinkKind, number>;
  /** Seconds from the receivers' return to the first record received: the shipper's retry pause. */
  firstRecordAfterSeconds: Record<SinkKind, number>;
  /** Gateway CPU from the first record received until both had every event, per event and sink. */
  cpuMsPerDelivery: number;
  rssPeakMb: number;
}

/** Events written while both receivers are down, in tenants of their own, then shipped. */
async function shipBacklog(
  on: Gateway,
  adminToken: string,
  databaseUrl: string,
  rsyslog: Rsyslog,
  receivers: ReceiverSide,
): Promise<BacklogResult> {
  await rsyslog.stop();
  await ask(receivers.webhook.child, { type: 'receiver-down' }, 'receiver-state');
  const tenants: string[] = [];
  for (let index = 0; index < BACKLOG_TENANTS; index++) {
    const tenant = await platformCall(on, adminToken, '/v1/admin/tenants', { name: `backlog-${index}` });
    tenants.push(tenant.id as string);
  }
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const chainKeys = new AuditChainKeys(parseKeyRing(gatewayEnv(databaseUrl, 'info').AUDIT_CHAIN_KEYS!));
    const perTenant = Math.ceil(settings.backlog / BACKLOG_TENANTS);
    for (const tenantId of tenants) await seedAudit(client, tenantId, perTenant, chainKeys);
  } finally {
    await client.end();
  }
  await untilSinks(
    on,
    adminToken,
    'the sinks to see the backlog',
    (states) => SINKS.every((kind) => states[kind].eventsBehind >= settings.backlog),
    60_000,
  );

  receivers.syslog.read();
  receivers.syslog.receipts.since();
  await ask(receivers.webhook.child, { type: 'since' }, 'since');
  const profiling = flags.profile || flags['profile-out'] !== undefined;
  if (profiling) await ask(on.child, { type: 'profile-start', allocations: false } as Message, 'profiling');
  const rss = new RssSampler([on.pid]);
  await rsyslog.restart();
  await ask(receivers.webhook.child, { type: 'receiver-up' }, 'receiver-state');
  const returnedAt = Date.now();
  // The CPU of shipping, from the first record on: not the shipper's retry pause before it.
  const firstRecord = async () => {
    receivers.syslog.read();
    return receivers.syslog.receipts.counts().sinceCount + (await webhookReceipts(receivers)).sinceCount > 0;
  };
  while (!(await firstRecord())) await sleep(20);
  const cpuBefore = cpuMs(on.pid);
  await untilSinks(on, adminToken, 'the sinks to ship the backlog', everyDelivered, 30 * 60_000);
  const cpuMsPerDelivery = (cpuMs(on.pid) - cpuBefore) / (settings.backlog * SINKS.length);
  const rssPeakMb = rss.stop().get(on.pid) ?? NaN;
  if (profiling) await reportProfile(on);

  receivers.syslog.read();
  const counts: Record<SinkKind, ReceiptCounts> = {
    syslog: receivers.syslog.receipts.counts(),
    webhook: await webhookReceipts(receivers),
  };
  const rate = ({ firstAt, lastAt, sinceCount }: ReceiptCounts) =>
    firstAt === null || lastAt === null || lastAt === firstAt
      ? NaN
      : (sinceCount * 1000) / (lastAt - firstAt);
  return {
    events: settings.backlog,
    eventsPerSecond: { syslog: rate(counts.syslog), webhook: rate(counts.webhook) },
    firstRecordAfterSeconds: {
      syslog: ((counts.syslog.firstAt ?? NaN) - returnedAt) / 1000,
      webhook: ((counts.webhook.firstAt ?? NaN) - returnedAt) / 1000,
    },
    cpuMsPerDelivery,
    rssPeakMb,
  };
}

async function reportProfile(gateway: Gateway): Promise<void> {
  let path = flags['profile-out'];
  let directory: string | undefined;
  if (path === undefined) {
    directory = mkdtempSync(join(tmpdir(), 'gateway-profile-'));
    path = join(directory, 'gateway.cpuprofile');
  }
  await ask(gateway.child, { type: 'profile-stop', path } as Message, 'profiled');
  console.log('\nwhere the gateway spent its CPU while it shipped the backlog:');
  console.log(formatProfile(summariseProfile(path)));
  if (directory) rmSync(directory, { recursive: true, force: true });
}

interface OutageResult {
  outageSeconds: number;
  writes: number;
  failedWrites: number;
  /** Seconds from its return until the oldest event it had not delivered was within the lag target. */
  caughtUpSeconds: number;
}

/**
 * Writes at the outage rate; the syslog receiver goes down for the outage, comes back, and the
 * writes go on until the sink has caught up (at least as long as the target allows).
 */
async function outage(on: Gateway, adminToken: string, rsyslog: Rsyslog): Promise<OutageResult> {
  const afterSeconds = TARGETS.catchUpSeconds + OUTAGE_LEAD_SECONDS;
  const load = fixedRate(on.ready.url, writes(on), {
    rate: settings.outageRate,
    seconds: OUTAGE_LEAD_SECONDS + settings.outageSeconds + afterSeconds,
  });
  await sleep(OUTAGE_LEAD_SECONDS * 1000);
  await rsyslog.stop();
  console.log(`syslog receiver down for ${settings.outageSeconds} s at ${settings.outageRate} writes/s`);
  await sleep(settings.outageSeconds * 1000);
  await rsyslog.restart();
  const returnedAt = Date.now();
  const caughtUpAt = await untilSinks(
    on,
    adminToken,
    'the syslog sink to catch up',
    (states) => states.syslog.secondsBehind <= TARGETS.lagP99Seconds,
    settings.outageSeconds * 1000 + 10 * 60_000,
  );
  const result = await load;
  return {
    outageSeconds: settings.outageSeconds,
    writes: result.ok,
    failedWrites: result.failed,
    caughtUpSeconds: (caughtUpAt - returnedAt) / 1000,
  };
}

const verdict = (met: boolean): string => (met ? 'met' : 'NOT MET');
const fixed = (value: number, digits = 0): string =>
  Number.isNaN(value)
    ? 'n/a'
    : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** One line of the report: what, the figures, the target, and whether they meet it. */
type ReportLine = [string, string, string, string];

/** Closed loop and fixed rate, sinks on and off: throughput, CPU per write, delivery lag. */
async function writePhase(
  off: Gateway,
  on: Gateway,
  receivers: ReceiverSide,
  drained: () => Promise<unknown>,
): Promise<{ lines: ReportLine[]; results: object }> {
  for (const gateway of [off, on]) {
    await probe(gateway);
    await closedLoop(gateway.ready.url, writes(gateway), {
      connections: settings.connections,
      seconds: settings.warmupSeconds,
    });
  }
  await drained();

  console.log(`closed loop, ${settings.connections} connections, ${settings.seconds} s each`);
  await settle([off.pid, on.pid]);
  const closedOff = await measureClosedLoop(off);
  await settle([off.pid, on.pid]);
  const closedOn = await measureClosedLoop(on);
  await drained();

  console.log(`fixed rate, ${settings.rate} writes/s for ${settings.rateSeconds} s each`);
  const fixedOff = await measureFixedRate(off, () => Promise.resolve());
  const lagFrom = Date.now();
  receivers.syslog.receipts.measureLagFrom(lagFrom);
  await ask(receivers.webhook.child, { type: 'measure-lag', from: lagFrom } as Message, 'measuring');
  const fixedOn = await measureFixedRate(on, drained);
  receivers.syslog.read();
  const lag: Record<SinkKind, LagSummary> = {
    syslog: receivers.syslog.receipts.lagSummary(),
    webhook: await ask<Message & LagSummary>(receivers.webhook.child, { type: 'lag' }, 'lag'),
  };

  const addedCpu = fixedOn.cpuMsPerWrite - fixedOff.cpuMsPerWrite;
  const lagP99Seconds = Math.max(lag.syslog.p99Ms, lag.webhook.p99Ms) / 1000;
  return {
    lines: [
      [
        'closed-loop writes/s (PUT dashboard)',
        `sinks on ${fixed(closedOn.writesPerSecond)}, off ${fixed(closedOff.writesPerSecond)}`,
        `≥ ${TARGETS.closedLoopWritesPerSecond} with sinks on`,
        verdict(closedOn.writesPerSecond >= TARGETS.closedLoopWritesPerSecond),
      ],
      [
        `gateway CPU per write at ${settings.rate}/s`,
        `on ${fixed(fixedOn.cpuMsPerWrite, 3)} ms, off ${fixed(fixedOff.cpuMsPerWrite, 3)} ms: ` +
          `${addedCpu >= 0 ? '+' : ''}${fixed(addedCpu, 3)} ms`,
        `≤ +${TARGETS.addedCpuMsPerWrite} ms`,
        verdict(addedCpu <= TARGETS.addedCpuMsPerWrite),
      ],
      [
        `delivery lag p99 at ${settings.rate} writes/s`,
        `syslog ${fixed(lag.syslog.p99Ms / 1000, 2)} s, webhook ${fixed(lag.webhook.p99Ms / 1000, 2)} s ` +
          `(refused writes: on ${fixedOn.failed}, off ${fixedOff.failed})`,
        `≤ ${TARGETS.lagP99Seconds} s`,
        verdict(lagP99Seconds <= TARGETS.lagP99Seconds),
      ],
    ],
    results: {
      closedLoop: { on: closedOn, off: closedOff },
      fixedRate: { on: fixedOn, off: fixedOff },
      lag,
    },
  };
}

const PHASES = ['writes', 'backlog', 'outage'] as const;

runMain(async (cleanups) => {
  const phases = flags.phases.split(',');
  const unknown = phases.filter((phase) => !(PHASES as readonly string[]).includes(phase));
  if (unknown.length > 0)
    throw new Error(`no phase ${unknown.join(', ')}; the phases are ${PHASES.join(', ')}`);
  if (!existsSync(RSYSLOGD))
    throw new Error(
      `bench:sinks delivers to Debian's rsyslogd, which is not installed (apt-get install -y rsyslog)`,
    );
  const machine = describeMachine();
  const onDatabase = await freshDatabase('pipes_gateway_sinks_on');
  cleanups.push(onDatabase.drop);
  const rsyslog = await Rsyslog.start();
  cleanups.push(() => rsyslog.remove());
  const syslog = new SyslogTail(rsyslog.receivedFile, new Receipts());
  cleanups.push(() => Promise.resolve(syslog.stop()));
  const webhookSecret = randomBytes(32).toString('hex');
  const receivers: ReceiverSide = {
    syslog,
    webhook: await startChild<WebhookReceiverReady>('webhook receiver', child('webhook-receiver'), {
      env: { ...process.env, BENCH_WEBHOOK_SECRET: webhookSecret },
    }),
  };
  const { ready: upstreams } = await startChild<UpstreamsReady>('upstream simulators', child('upstreams'));
  const adminToken = randomBytes(24).toString('hex');
  const on = await startGateway('gateway, sinks on', onDatabase.url, upstreams, {
    GATEWAY_ADMIN_TOKEN: adminToken,
    AUDIT_SYSLOG_URL: `tcp://127.0.0.1:${rsyslog.port}`,
    AUDIT_WEBHOOK_URL: receivers.webhook.ready.url,
    AUDIT_WEBHOOK_SECRET: webhookSecret,
  });
  const rss = new RssSampler([on.pid]);
  const rssAtStartMb = (rssBytes(on.pid) ?? NaN) / 2 ** 20;
  const drained = () =>
    untilSinks(on, adminToken, 'the sinks to deliver every event', everyDelivered, 10 * 60_000);

  const lines: ReportLine[] = [];
  const results: Record<string, unknown> = {};
  // The same writes' peak on the gateway without sinks: what of the peak is the sinks'.
  let offRssPeakMb: number | null = null;
  if (phases.includes('writes')) {
    const offDatabase = await freshDatabase('pipes_gateway_sinks_off');
    cleanups.push(offDatabase.drop);
    const off = await startGateway('gateway, sinks off', offDatabase.url, upstreams, {});
    const offRss = new RssSampler([off.pid]);
    const measured = await writePhase(off, on, receivers, drained);
    offRssPeakMb = offRss.stop().get(off.pid) ?? NaN;
    lines.push(...measured.lines);
    Object.assign(results, measured.results);
    await stopChild(off.child);
  }
  if (phases.includes('backlog')) {
    console.log(`a backlog of ${settings.backlog} events, both receivers down, then back`);
    const backlog = await shipBacklog(on, adminToken, onDatabase.url, rsyslog, receivers);
    results.backlog = backlog;
    lines.push([
      `shipping a backlog of ${fixed(backlog.events)} events`,
      `syslog ${fixed(backlog.eventsPerSecond.syslog)}/s, webhook ${fixed(backlog.eventsPerSecond.webhook)}/s ` +
        `(first record ${fixed(backlog.firstRecordAfterSeconds.syslog, 1)} s and ` +
        `${fixed(backlog.firstRecordAfterSeconds.webhook, 1)} s after the receivers returned; ` +
        `gateway CPU ${fixed(backlog.cpuMsPerDelivery * 1000)} µs per event and sink)`,
      `≥ ${fixed(TARGETS.backlogEventsPerSecond)}/s to rsyslog`,
      verdict(backlog.eventsPerSecond.syslog >= TARGETS.backlogEventsPerSecond),
    ]);
  }
  let down: OutageResult | null = null;
  if (phases.includes('outage')) {
    down = await outage(on, adminToken, rsyslog);
    results.outage = down;
  }

  // Every event stored, whatever the phases wrote, reached both receivers.
  await drained();
  await syslogSettled(receivers.syslog);
  const stored = await storedEvents(onDatabase.url);
  const webhookCounts = await webhookReceipts(receivers);
  const syslogCounts = receivers.syslog.receipts.counts();
  const delivery = {
    stored: Object.values(stored).reduce((sum, count) => sum + count, 0),
    lost: { syslog: lost(stored, syslogCounts), webhook: lost(stored, webhookCounts) },
    repeats: { syslog: syslogCounts.repeats, webhook: webhookCounts.repeats },
    badSignatures: webhookCounts.badSignatures,
  };
  const noneLost = delivery.lost.syslog + delivery.lost.webhook === 0;
  if (down) {
    lines.push([
      `syslog down ${down.outageSeconds} s at ${settings.outageRate} writes/s`,
      `caught up ${fixed(down.caughtUpSeconds, 1)} s after its return`,
      `≤ ${TARGETS.catchUpSeconds} s`,
      verdict(down.caughtUpSeconds <= TARGETS.catchUpSeconds),
    ]);
  }
  lines.push([
    `every event stored (${fixed(delivery.stored)}) delivered`,
    `lost: syslog ${delivery.lost.syslog}, webhook ${delivery.lost.webhook}; sent again: syslog ` +
      `${delivery.repeats.syslog}, webhook ${delivery.repeats.webhook}; bad signatures ${delivery.badSignatures}`,
    'none lost',
    verdict(noneLost && delivery.badSignatures === 0),
  ]);
  const rssPeakMb = rss.stop().get(on.pid) ?? NaN;
  const backlogRss = (results.backlog as BacklogResult | undefined)?.rssPeakMb;
  lines.push([
    'gateway RSS, sinks on',
    `peak ${fixed(rssPeakMb)} MB` +
      (backlogRss === undefined ? '' : ` (shipping the backlog ${fixed(backlogRss)} MB)`) +
      `, at start ${fixed(rssAtStartMb)} MB` +
      (offRssPeakMb === null ? '' : `; sinks off, the same writes: peak ${fixed(offRssPeakMb)} MB`),
    `≤ ${TARGETS.rssMb} MB`,
    verdict(rssPeakMb <= TARGETS.rssMb),
  ]);

  const width = (column: number) => Math.max(...lines.map((line) => line[column].length));
  console.log('');
  for (const line of lines)
    console.log(line.map((cell, column) => (column === 3 ? cell : cell.padEnd(width(column)))).join('  '));

  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(
    join(RESULTS, 'sinks.json'),
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        machine,
        settings,
        phases,
        targets: TARGETS,
        ...results,
        delivery,
        rss: { atStartMb: rssAtStartMb, peakMb: rssPeakMb, sinksOffPeakMb: offRssPeakMb },
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwritten to ${join(RESULTS, 'sinks.json')}`);
});
