import { randomUUID } from 'node:crypto';
import { startDashboardsSimulator, startPipesSimulator } from '../../sandbox';
import type { DashboardsSimulator, PipesSimulator } from '../../sandbox';
import { startGateway, TestGateway } from './gateway';
import { bearer, createTenant, TestTenant, storePipesCredential } from './fixtures';

/** What a world needs of its gateway: an in-process one (startGateway) or a process (gateway-process.ts). */
export type WorldGateway = Pick<TestGateway, 'http' | 'url' | 'close'>;

export interface UpstreamWorld<G extends WorldGateway = TestGateway> {
  gateway: G;
  pipes: PipesSimulator;
  dashboards: DashboardsSimulator;
  tenant: TestTenant;
  /** The organization the tenant's pipes credential is for. */
  organizationId: string;
  serviceId: string;
  pipesKey: { keyId: string; keySecret: string };
  dashboardsToken: string;
  dashboardsCredentialId: string;
  close(): Promise<void>;
}

/**
 * The gateway wired to both simulators over real HTTP, with one tenant whose pipes and
 * dashboards credentials are stored through the API. The secrets carry a canary marker so
 * tests can search every output for them.
 */
export function startUpstreamWorld(env: Record<string, string> = {}): Promise<UpstreamWorld> {
  return startUpstreamWorldWith(startGateway, env);
}

/** As startUpstreamWorld, with the gateway `start` makes. */
export async function startUpstreamWorldWith<G extends WorldGateway>(
  start: (env: Record<string, string>) => Promise<G>,
  env: Record<string, string> = {},
): Promise<UpstreamWorld<G>> {
  const canary = `CANARY${randomUUID().replace(/-/g, '')}`;
  const pipesKey = { keyId: `keyid-${randomUUID().slice(0, 8)}`, keySecret: `${canary}-pipes-secret` };
  const dashboardsToken = `${canary}-dashboards-token`;
  const pipes = await startPipesSimulator({
    keys: [pipesKey],
    stateDelaysMs: { provisioning: 50, setup: 50, snapshot: 50, oneOffLoad: 50 },
  });
  const dashboards = await startDashboardsSimulator({ tokens: [dashboardsToken] });
  const gateway = await start({
    PIPES_API_URL: pipes.url,
    DASHBOARDS_API_URL: dashboards.url,
    UPSTREAM_TIMEOUT_MS: '2000',
    ...env,
  });
  const tenant = await createTenant(gateway);
  const organizationId = randomUUID();
  await storePipesCredential(gateway, tenant, organizationId, pipesKey);
  const dashboardsCredential = await gateway.http
    .post('/v1/credentials')
    .set(bearer(tenant.keys.admin))
    .send({ kind: 'dashboards', name: 'dashboards', token: dashboardsToken })
    .expect(201);
  return {
    gateway,
    pipes,
    dashboards,
    tenant,
    organizationId,
    serviceId: randomUUID(),
    pipesKey,
    dashboardsToken,
    dashboardsCredentialId: dashboardsCredential.body.id,
    close: async () => {
      await gateway.close();
      await pipes.close();
      await dashboards.close();
    },
  };
}

export function canaryOf(world: UpstreamWorld<WorldGateway>): string {
  return world.pipesKey.keySecret.split('-')[0];
}

/**
 * What the gateway keeps of its calls (the create-spec history, the audit log, its logs) holds
 * none of `secrets`.
 */
export async function expectKeptNowhere(world: UpstreamWorld, ...secrets: string[]): Promise<void> {
  const auditor = bearer(world.tenant.keys.auditor);
  const history = await world.gateway.http.get('/v1/history/pipe-specs?limit=200').set(auditor).expect(200);
  const audit = await world.gateway.http.get('/v1/audit/export').set(auditor).expect(200);
  for (const secret of secrets) {
    expect(JSON.stringify(history.body)).not.toContain(secret);
    expect(audit.text).not.toContain(secret);
    expect(world.gateway.logs.text()).not.toContain(secret);
  }
}
