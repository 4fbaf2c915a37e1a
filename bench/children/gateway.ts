import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { KeysService } from '../../src/auth/keys.service';
import { closeGracefully, createApp } from '../../src/bootstrap';
import { loadConfig } from '../../src/config/app-config';
import { CredentialsService } from '../../src/credentials/credentials.service';
import { TenantsService } from '../../src/tenants/tenants.service';
import { GatewayReady, ORGANIZATION_ID, UpstreamsReady } from '../lib/scenario';
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

  const actor = { actor: 'bench', onBehalfOf: null, keyId: null, requestId: randomUUID() };
  const tenant = await app.get(TenantsService).create({ name: `bench-${randomUUID()}` }, actor);
  const { key } = await app
    .get(KeysService)
    .issue(tenant.id, { name: 'bench', roles: ['admin', 'operator', 'auditor'] }, actor);
  if (upstreams) {
    const credentials = app.get(CredentialsService);
    await credentials.create(
      tenant.id,
      { kind: 'pipes', name: 'bench pipes', organizationId: ORGANIZATION_ID, ...upstreams.pipesKey },
      actor,
    );
    await credentials.create(
      tenant.id,
      { kind: 'dashboards', name: 'bench dashboards', token: upstreams.dashboardsToken },
      actor,
    );
  }

  const ready: GatewayReady = {
    type: 'ready',
    url: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`,
    tenantId: tenant.id,
    key,
  };
  // Connected only when asked for, so unprofiled runs carry no inspector session.
  let profiler: Profiler | undefined;
  return {
    ready,
    stop: () => closeGracefully(app),
    handle: (message) => (profiler ??= new Profiler()).handle(message),
  };
});
