import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { PerformanceObserver } from 'node:perf_hooks';
import { closeGracefully, createApp } from '../../src/bootstrap';
import { loadConfig } from '../../src/config/app-config';
import { CredentialStore } from '../../src/credentials/credential-store';
import { seedDemoTenant } from '../../sandbox/demo-tenant';
import { GatewayReady, ORGANIZATION_ID, UpstreamsReady } from '../lib/scenario';
import type { Message } from '../lib/processes';
import { serveChild } from './child';
import { countDatabaseRoundTrips, databaseTally, largestAuditAppend } from './database-tally';
import { Profiler } from './profiler';

// Vault secrets of the benchmark's tenant besides the demo one, half strings and half objects of
// three fields: every answer is scrubbed of their values, as a team's would be of its vault's.
const VAULT_SECRETS = 32;

/**
 * The gateway as production builds it (createApp), configured from the environment the runner
 * gives, with a tenant, a key with every role and, when upstreams are given, both credentials
 * and a vault of VAULT_SECRETS more secrets. Every round trip it makes to Postgres is counted
 * (database-tally.ts), for the runner to read per route.
 */
serveChild(async () => {
  const gcPause = watchGcPauses();
  countDatabaseRoundTrips();
  const upstreams = process.argv[2] ? (JSON.parse(process.argv[2]) as UpstreamsReady) : null;
  const config = loadConfig(process.env);
  const app = await createApp(config, { quiet: true });
  await app.listen({ port: 0, host: '127.0.0.1' });

  const { tenantId, key } = await seedDemoTenant(app, {
    tenantName: `bench-${randomUUID()}`,
    keyName: 'bench',
    organizationId: ORGANIZATION_ID,
    upstreams,
  });
  if (upstreams) await fillVault(app, tenantId);

  const ready: GatewayReady = {
    type: 'ready',
    url: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`,
    tenantId,
    key,
  };
  // Connected only when asked for, so unprofiled runs carry no inspector session.
  let profiler: Profiler | undefined;
  return {
    ready,
    stop: () => closeGracefully(app),
    handle: (message) => {
      if (message.type === 'memory') return Promise.resolve(liveMemory());
      if (message.type === 'gc-pause') return Promise.resolve({ type: 'gc-pause', ms: gcPause() });
      if (message.type === 'database-tally') return Promise.resolve(databaseTally());
      if (message.type === 'largest-append') return Promise.resolve(largestAuditAppend());
      return (profiler ??= new Profiler()).handle(message);
    },
  };
});

async function fillVault(app: INestApplicationContext, tenantId: string): Promise<void> {
  const credentials = app.get(CredentialStore);
  const actor = { actor: 'bench', onBehalfOf: null, keyId: null, requestId: randomUUID() };
  const value = (): string => randomBytes(18).toString('base64url');
  for (let index = 0; index < VAULT_SECRETS; index++) {
    await credentials.create(
      tenantId,
      {
        kind: 'secret',
        name: `bench-secret-${index}`,
        value: index % 2 ? value() : { username: `reader-${index}`, password: value(), host: value() },
      },
      actor,
    );
  }
}

/**
 * Time the main thread has spent paused for garbage collection so far, in ms. A process that
 * promotes much of each request to the old generation pays for it here, in longer scavenges and
 * more full collections (bench/README.md, "Reading the results").
 */
function watchGcPauses(): () => number {
  let total = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) total += entry.duration;
  }).observe({ entryTypes: ['gc'] });
  return () => total;
}

/** Memory after a full collection (the runner starts this child with --expose-gc): live data only. */
function liveMemory(): Message & NodeJS.MemoryUsage {
  (globalThis as { gc?: () => void }).gc?.();
  return { type: 'memory', ...process.memoryUsage() };
}
