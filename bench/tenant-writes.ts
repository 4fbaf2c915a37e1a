import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freshDatabase, gatewayEnv } from './lib/database';
import { closedLoop } from './lib/load';
import type { LoadResult } from './lib/load';
import { describeMachine } from './lib/machine';
import { commandOptions } from './lib/options';
import { productionLaunch, runMain, startChild } from './lib/processes';
import type { GatewayReady } from './lib/scenario';
import { percentile } from './lib/stats';

const RESULTS = resolve(__dirname, '../../bench/results');
// The quiet tenant's writes are timed only once the busy one's load runs at its full count.
const BURST_LEAD_IN_MS = 2_000;

const flags = commandOptions('bench:tenant-writes', {
  /** Writes the busy tenant keeps in flight. */
  burst: { type: 'string', default: '250' },
  /** Seconds of the busy tenant's load. */
  seconds: { type: 'string', default: '10' },
  /** The quiet tenant's writes timed alone, before the load. */
  requests: { type: 'string', default: '200' },
  /** Vault secrets of the busy tenant its writes rotate in turn. */
  secrets: { type: 'string', default: '16' },
});
const settings = {
  burst: Number(flags.burst),
  seconds: Number(flags.seconds),
  requests: Number(flags.requests),
  secrets: Number(flags.secrets),
};

interface Timings {
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers other than 200, by status. */
  statuses: Record<string, number>;
}

async function call(
  url: string,
  key: string,
  method: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  return { status: response.status, body: answer, ms: performance.now() - started };
}

async function storeSecret(gateway: GatewayReady, key: string, name: string): Promise<string> {
  const stored = await call(`${gateway.url}/v1/credentials`, key, 'POST', {
    kind: 'secret',
    name,
    value: name,
  });
  if (stored.status !== 201) throw new Error(`storing a secret answered ${stored.status}`);
  return stored.body.id as string;
}

/** One write at a time, so each time is the write's own latency, not queueing behind itself. */
async function timeRotations(
  gateway: GatewayReady,
  key: string,
  secretId: string,
  until: () => boolean,
): Promise<Timings> {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  while (!until()) {
    const { status, ms } = await call(`${gateway.url}/v1/credentials/${secretId}/rotate`, key, 'POST', {
      value: randomBytes(12).toString('hex'),
    });
    if (status === 200) times.push(ms);
    else statuses[status] = (statuses[status] ?? 0) + 1;
  }
  const sorted = Float64Array.from(times).sort();
  return {
    count: times.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
    statuses,
  };
}

function line(name: string, timings: Timings): string {
  const refused = Object.entries(timings.statuses).map(([status, count]) => `${count}×${status}`);
  return (
    `${name}  ${timings.count} writes  p50 ${timings.p50.toFixed(1)} ms  p99 ${timings.p99.toFixed(1)} ms  ` +
    `max ${timings.max.toFixed(1)} ms${refused.length > 0 ? `  not 200: ${refused.join(', ')}` : ''}`
  );
}

runMain(async (cleanups) => {
  const machine = describeMachine();
  const database = await freshDatabase('pipes_gateway_tenant_writes');
  cleanups.push(database.drop);
  const adminToken = randomBytes(24).toString('hex');
  const { ready: gateway } = await startChild<GatewayReady>(
    'gateway',
    join(__dirname, 'children', 'gateway.js'),
    {
      // Room for the whole burst: refused writes a closed loop sends again at once would measure
      // the refusals' cost, and the write slots have a test of their own.
      env: gatewayEnv(database.url, 'info', {
        GATEWAY_ADMIN_TOKEN: adminToken,
        MAX_WRITES_IN_FLIGHT: String(settings.burst * 2),
      }),
      execArgv: productionLaunch().nodeOptions,
    },
  );

  // The quiet tenant is the gateway's own; the busy one is made through the platform API.
  const tenant = await call(`${gateway.url}/v1/admin/tenants`, adminToken, 'POST', { name: 'busy' });
  const issued = await call(
    `${gateway.url}/v1/admin/tenants/${String(tenant.body.id)}/keys`,
    adminToken,
    'POST',
    {
      name: 'busy-admin',
      roles: ['admin'],
    },
  );
  if (tenant.status !== 201 || issued.status !== 201) throw new Error('could not make the busy tenant');
  const busyKey = issued.body.key as string;
  const quietSecret = await storeSecret(gateway, gateway.key, 'quiet');
  const busySecrets: string[] = [];
  for (let index = 0; index < settings.secrets; index++)
    busySecrets.push(await storeSecret(gateway, busyKey, `busy-${index}`));

  let done = 0;
  const alone = await timeRotations(gateway, gateway.key, quietSecret, () => done++ >= settings.requests);

  let next = 0;
  let loadEnded = false;
  const load: Promise<LoadResult> = closedLoop(
    gateway.url,
    {
      method: 'POST',
      path: () => `/v1/credentials/${busySecrets[next++ % busySecrets.length]}/rotate`,
      headers: { authorization: `Bearer ${busyKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ value: 'busy-tenant-value' }),
    },
    { connections: settings.burst, seconds: settings.seconds },
  ).finally(() => (loadEnded = true));
  await new Promise((resolve) => setTimeout(resolve, BURST_LEAD_IN_MS));
  const during = await timeRotations(gateway, gateway.key, quietSecret, () => loadEnded);
  const busy = await load;

  console.log(
    `\na tenant's single writes (credential rotation), alone and while another tenant keeps ` +
      `${settings.burst} in flight for ${settings.seconds} s`,
  );
  console.log(line('quiet tenant, alone          ', alone));
  console.log(line('quiet tenant, beside the busy', during));
  console.log(
    `busy tenant  ${busy.rps.toFixed(0)} writes/s  p50 ${busy.p50.toFixed(1)} ms  p99 ${busy.p99.toFixed(1)} ms  ` +
      `refused or failed ${busy.failed} ${JSON.stringify(busy.statuses)}`,
  );
  console.log(
    `(target: the quiet tenant's p99 beside the busy one ≤ 100 ms: ${during.p99 <= 100 ? 'met' : 'NOT MET'})`,
  );

  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(
    join(RESULTS, 'tenant-writes.json'),
    `${JSON.stringify({ at: new Date().toISOString(), machine, settings, alone, during, busy }, null, 2)}\n`,
  );
  console.log(`\nwritten to ${join(RESULTS, 'tenant-writes.json')}`);
});
