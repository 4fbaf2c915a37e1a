import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { closeGracefully, createApp } from '../../src/bootstrap';
import { loadConfig } from '../../src/config/app-config';
import { seedDemoTenant } from '../../src/demo-tenant';
import { GatewayReady, ORGANIZATION_ID, UpstreamsReady } from '../lib/scenario';
import type { Message } from '../lib/processes';
import { serveChild } from './child';
import { Profiler } from './profiler';

/**
 * The gateway as production builds it (createApp), configured from the environment the runner
 * gives, with a tenant, a key with every role and, when upstreams are given, both credentials.
 */
serveChild(async () => {
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
    handle: (message) =>
      message.type === 'memory'
        ? Promise.resolve(liveMemory())
        : (profiler ??= new Profiler()).handle(message),
  };
});

/** Memory after a full collection (the runner starts this child with --expose-gc): live data only. */
function liveMemory(): Message & NodeJS.MemoryUsage {
  (globalThis as { gc?: () => void }).gc?.();
  return { type: 'memory', ...process.memoryUsage() };
}
