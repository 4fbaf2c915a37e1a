import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { AuditChainKeys } from '../src/crypto/audit-chain-keys';
import { parseKeyRing } from '../src/crypto/key-ring';
import { freshDatabase, gatewayEnv } from './lib/database';
import { describeMachine } from './lib/machine';
import { commandOptions } from './lib/options';
import { ask, productionLaunch, runMain, startChild } from './lib/processes';
import type { Message } from './lib/processes';
import type { GatewayReady } from './lib/scenario';
import { AUDIT_ACTIONS, ORGANIZATION_IDS, seedAudit, seedHistory } from './lib/seed';
import { percentile } from './lib/stats';

const RESULTS = resolve(__dirname, '../../bench/results');

const flags = commandOptions('bench:scale', {
  rows: { type: 'string', default: '1000000' },
  requests: { type: 'string', default: '200' },
  verifications: { type: 'string', default: '2' },
  /** Audit events appended after the signed checkpoint that verification from a checkpoint starts at. */
  'since-checkpoint': { type: 'string', default: '10000' },
  /** Writes a CPU profile of the gateway during the first verification to this file. */
  'profile-verify': { type: 'string' },
});
const settings = {
  rows: Number(flags.rows),
  requests: Number(flags.requests),
  verifications: Number(flags.verifications),
  sinceCheckpoint: Number(flags['since-checkpoint']),
};

interface PageTiming {
  path: string;
  available: boolean;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

async function get(url: string, key: string): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const body = await response.json();
  return { status: response.status, body, ms: performance.now() - started };
}

/** One request at a time, so the figure is the page's own latency, not queueing. */
async function timePages(gateway: GatewayReady, paths: string[]): Promise<PageTiming> {
  const first = await get(`${gateway.url}${paths[0]}`, gateway.key);
  if (first.status === 404)
    return { path: paths[0], available: false, p50: NaN, p95: NaN, p99: NaN, max: NaN };
  if (first.status !== 200)
    throw new Error(`${paths[0]} answered ${first.status}: ${JSON.stringify(first.body)}`);
  for (let index = 0; index < 10; index++)
    await get(`${gateway.url}${paths[index % paths.length]}`, gateway.key);
  const times: number[] = [];
  for (let index = 0; index < settings.requests; index++) {
    const { status, ms } = await get(`${gateway.url}${paths[index % paths.length]}`, gateway.key);
    if (status !== 200) throw new Error(`${paths[index % paths.length]} answered ${status}`);
    times.push(ms);
  }
  const sorted = Float64Array.from(times).sort();
  return {
    path: paths[0],
    available: true,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
  };
}

interface Verification {
  seconds: number;
  status: number;
  result: unknown;
  /** How long the liveness probe took while the verification ran: what it holds other requests for. */
  probe?: ProbeTimes;
}

interface ProbeTimes {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * GET /health/live one after another, PROBE_GAP_MS apart, until `running` settles: how long a
 * request waits for the gateway's event loop meanwhile.
 */
async function probeWhile<T>(
  gateway: GatewayReady,
  running: Promise<T>,
): Promise<{ value: T; probe: ProbeTimes }> {
  let done = false;
  const settled = running.finally(() => (done = true));
  const times: number[] = [];
  while (!done) {
    const started = performance.now();
    const response = await fetch(`${gateway.url}/health/live`);
    await response.arrayBuffer();
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, PROBE_GAP_MS));
  }
  const sorted = Float64Array.from(times).sort();
  return {
    value: await settled,
    probe: {
      count: sorted.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1],
    },
  };
}

const PROBE_GAP_MS = 10;

function elapsed(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

runMain(async (cleanups) => {
  const machine = describeMachine();
  const database = await freshDatabase('pipes_gateway_scale');
  cleanups.push(database.drop);
  const env = gatewayEnv(database.url, 'warn');
  const { ready: gateway, child } = await startChild<GatewayReady>(
    'gateway',
    join(__dirname, 'children', 'gateway.js'),
    { env, execArgv: productionLaunch().nodeOptions },
  );
  const client = new Client({ connectionString: database.url });
  await client.connect();
  cleanups.push(() => client.end());

  let started = performance.now();
  await seedHistory(client, gateway.tenantId, settings.rows);
  console.log(`seeded ${settings.rows} history rows in ${elapsed(started)}`);
  started = performance.now();
  const chainKeys = new AuditChainKeys(parseKeyRing(env.AUDIT_CHAIN_KEYS!));
  await seedAudit(client, gateway.tenantId, settings.rows, chainKeys);
  console.log(`seeded ${settings.rows} audit events in ${elapsed(started)}`);
  // A signed checkpoint of the head (GET /v1/audit/checkpoint keeps it), then more events after it.
  const checkpoint = await get(`${gateway.url}/v1/audit/checkpoint`, gateway.key);
  if (checkpoint.status !== 200) throw new Error(`GET /v1/audit/checkpoint answered ${checkpoint.status}`);
  await seedAudit(client, gateway.tenantId, settings.sinceCheckpoint, chainKeys);
  console.log(`signed a checkpoint, then seeded ${settings.sinceCheckpoint} audit events after it`);

  const history = await timePages(
    gateway,
    ORGANIZATION_IDS.map((id) => `/v1/history/pipe-specs?organizationId=${id}&outcome=failed&limit=50`),
  );
  const audit = await timePages(
    gateway,
    AUDIT_ACTIONS.map((action) => `/v1/audit?action=${action}&limit=50`),
  );
  const verifications: Verification[] = [];
  for (let run = 0; run < settings.verifications; run++) {
    const profilePath = run === 0 ? flags['profile-verify'] : undefined;
    if (profilePath) {
      await ask<Message>(child, { type: 'profile-start', allocations: false } as Message, 'profiling');
    }
    const {
      value: { status, body, ms },
      probe,
    } = await probeWhile(gateway, get(`${gateway.url}/v1/audit/verify`, gateway.key));
    if (profilePath)
      await ask<Message>(child, { type: 'profile-stop', path: profilePath } as Message, 'profiled');
    if (status === 404) break;
    verifications.push({ seconds: ms / 1000, status, result: body, probe });
  }
  const sinceCheckpoint: Verification[] = [];
  for (let run = 0; run < settings.verifications; run++) {
    const { status, body, ms } = await get(`${gateway.url}/v1/audit/verify?from=checkpoint`, gateway.key);
    sinceCheckpoint.push({ seconds: ms / 1000, status, result: body });
  }

  console.log(`\nhistory and audit with ${settings.rows} rows each, ${settings.requests} requests per page`);
  for (const page of [history, audit]) {
    console.log(
      page.available
        ? `${page.path}  p50 ${page.p50.toFixed(1)} ms  p95 ${page.p95.toFixed(1)} ms  p99 ${page.p99.toFixed(1)} ms  max ${page.max.toFixed(1)} ms  (target p95 ≤ 20 ms: ${page.p95 <= 20 ? 'met' : 'NOT MET'})`
        : `${page.path}  not served by this build (404)`,
    );
  }
  const printVerification = (path: string, verification: Verification, targetSeconds: number): void =>
    console.log(
      `${path}  ${verification.seconds.toFixed(2)} s  ${JSON.stringify(verification.result)}  (target ≤ ${targetSeconds} s: ${verification.seconds <= targetSeconds ? 'met' : 'NOT MET'})`,
    );
  for (const verification of verifications) {
    printVerification('GET /v1/audit/verify', verification, 10);
    const { count, p50, p99, max } = verification.probe!;
    console.log(
      `  meanwhile GET /health/live (${count} probes)  p50 ${p50.toFixed(1)} ms  p99 ${p99.toFixed(1)} ms  max ${max.toFixed(1)} ms`,
    );
  }
  if (verifications.length === 0) console.log('GET /v1/audit/verify  not served by this build (404)');
  for (const verification of sinceCheckpoint) {
    if (verification.status === 200) {
      printVerification('GET /v1/audit/verify?from=checkpoint', verification, 1);
    } else {
      console.log(`GET /v1/audit/verify?from=checkpoint  answered ${verification.status}`);
    }
  }

  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(
    join(RESULTS, 'scale.json'),
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        machine,
        settings,
        history,
        audit,
        verifications,
        sinceCheckpoint,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwritten to ${join(RESULTS, 'scale.json')}`);
});
