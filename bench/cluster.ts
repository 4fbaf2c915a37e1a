/**
 * `npm run bench:cluster`: HAProxy in front of three replicas of the built gateway, with Postgres,
 * Redis and the upstream simulators, under a steady mixed load and 200 event streams; a rolling
 * restart, a replica killed, and the ceilings (bench/lib/cluster/cluster-run.ts).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freshDatabase } from './lib/database';
import { describeMachine } from './lib/machine';
import { commandOptions } from './lib/options';
import { runMain } from './lib/processes';
import { runCluster } from './lib/cluster/cluster-run';
import { formatCluster } from './lib/cluster/cluster-report';
import { hasHaproxy, NO_HAPROXY } from './lib/cluster/haproxy';

const RESULTS = resolve(__dirname, '../../bench/results');

const flags = commandOptions('bench:cluster', {
  replicas: { type: 'string', default: '3' },
  streams: { type: 'string', default: '200' },
  tenants: { type: 'string', default: '3' },
  /** Multiplies the steady load's rates; well above 1, reads outrun the tenants' upstream budgets and are refused 429. */
  pace: { type: 'string', default: '1' },
  /** Of steady load before the rolling restart, and after the killed replica is back. */
  steady: { type: 'string', default: '20' },
  'drain-ms': { type: 'string', default: '5000' },
  'ceiling-seconds': { type: 'string', default: '10' },
  'ceiling-connections': { type: 'string', default: '64' },
  'ceiling-tenants': { type: 'string', default: '16' },
  'redis-url': { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
});

runMain(async (cleanups) => {
  if (!hasHaproxy) throw new Error(NO_HAPROXY);
  const machine = describeMachine();
  const database = await freshDatabase('pipes_gateway_cluster');
  cleanups.push(database.drop);
  const folder = mkdtempSync(join(tmpdir(), 'pipes-cluster-'));
  console.log(`configurations and every process's output: ${folder}`);
  const outcome = await runCluster(
    {
      build: 'dist',
      databaseUrl: database.url,
      redisUrl: flags['redis-url'],
      folder,
      replicas: Number(flags.replicas),
      streams: Number(flags.streams),
      tenants: Number(flags.tenants),
      pace: Number(flags.pace),
      steadySeconds: Number(flags.steady),
      pauseSeconds: 2,
      downSeconds: 3,
      drainMs: Number(flags['drain-ms']),
      ceilingSeconds: Number(flags['ceiling-seconds']),
      ceilingConnections: Number(flags['ceiling-connections']),
      ceilingTenants: Number(flags['ceiling-tenants']),
      log: (line) => console.log(line),
    },
    cleanups,
  );
  console.log(formatCluster(outcome));
  mkdirSync(RESULTS, { recursive: true });
  const file = join(RESULTS, 'cluster.json');
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), machine, outcome }, null, 2)}\n`);
  console.log(`\nwritten to ${file}`);
});
