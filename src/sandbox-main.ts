import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { startOidcIssuer } from '../sandbox/oidc-issuer';
import { runSimulators } from '../sandbox/run-simulators';
import type { Role } from './auth/roles';
import { closeGracefully, createApp } from './bootstrap';
import { ConfigError, loadConfig } from './config/app-config';
import { PrismaService } from './database/prisma.service';
import { DEMO_SECRET, seedDemoTenant } from './demo-tenant';
import { GroupMappingsService } from './sign-in/group-mappings.service';

const DEMO_TENANT = 'sandbox-demo';
const DEMO_ORGANIZATION = '00000000-0000-4000-8000-00000000de30';
const DEMO_SERVICE = '00000000-0000-4000-8000-0000000005e1';
// The local issuer's groups and what they may do in the demo tenant.
const DEMO_GROUPS: { group: string; roles: Role[] }[] = [
  { group: 'sandbox-admins', roles: ['admin', 'operator', 'auditor'] },
  { group: 'sandbox-viewers', roles: ['viewer'] },
];

/**
 * `npm run sandbox`: both upstream simulators on local ports and the gateway pointed at them, with
 * a demo tenant, a fresh admin key and sandbox credentials, so every route can be tried offline;
 * and a local OIDC issuer whose groups are mapped in the demo tenant, to try signing in.
 * SANDBOX_FAULTS (JSON, one fault or a list) starts the simulators with faults in force.
 */
async function main(): Promise<void> {
  const simulators = await runSimulators({
    pipesPort: Number(process.env.SANDBOX_PIPES_PORT ?? 4010),
    dashboardsPort: Number(process.env.SANDBOX_DASHBOARDS_PORT ?? 4020),
  });
  if (process.env.SANDBOX_FAULTS) {
    const faults = JSON.parse(process.env.SANDBOX_FAULTS) as unknown;
    for (const simulator of [simulators.pipes, simulators.dashboards]) {
      simulator.faults.add(
        ...((Array.isArray(faults) ? faults : [faults]) as Parameters<typeof simulator.faults.add>),
      );
    }
  }

  const issuer = await startOidcIssuer({
    port: Number(process.env.SANDBOX_OIDC_PORT ?? 4030),
    audience: 'pipes-gateway-sandbox',
  });

  const config = loadConfig({
    DATA_DIR: './data/sandbox',
    ...process.env,
    SANDBOX: 'true',
    PIPES_API_URL: simulators.pipes.url,
    DASHBOARDS_API_URL: simulators.dashboards.url,
    OIDC_ISSUER: issuer.url,
    OIDC_AUDIENCE: issuer.audience,
  });
  const app = await createApp(config);
  await app.listen({ port: config.http.port, host: config.http.host });
  const address = app.getHttpServer().address();
  const base = `http://localhost:${typeof address === 'object' && address ? address.port : config.http.port}`;

  const prisma = app.get(PrismaService);
  const { tenantId, key } = await seedDemoTenant(app, {
    tenantName: DEMO_TENANT,
    keyName: `sandbox-${randomBytes(3).toString('hex')}`,
    organizationId: DEMO_ORGANIZATION,
    upstreams: simulators,
  });
  await mapDemoGroups(app.get(GroupMappingsService), tenantId);

  const pipes = `${base}/v1/organizations/${DEMO_ORGANIZATION}/services/${DEMO_SERVICE}/pipes`;
  console.log(`
pipes-gateway sandbox on ${base}  (docs: ${base}/docs, database: ${prisma.description})
demo tenant ${tenantId}; admin/operator/auditor key (shown once):

  export GW=${base} KEY=${key}

  curl -s $GW/v1/credentials -H "Authorization: Bearer $KEY"
  curl -s ${pipes} -H "Authorization: Bearer $KEY" -H 'content-type: application/json' \\
    -d '{"name":"demo","source":{"kinesis":{"streamName":"orders","region":"us-east-1","accessKey":{"$secret":"${DEMO_SECRET}"}}},"destination":{"database":"default","table":"orders","columns":[{"name":"id","type":"String"}]},"fieldMappings":[{"sourceField":"id","destinationField":"id"}]}'
  curl -si $GW/v1/dashboards/${simulators.demoDashboard.id} -H "Authorization: Bearer $KEY"
  curl -s "$GW/v1/history/pipe-specs" -H "Authorization: Bearer $KEY"
  curl -s "$GW/v1/audit/verify" -H "Authorization: Bearer $KEY"

sign in as a person: local OIDC issuer on ${issuer.url}; in the demo tenant, the group
${DEMO_GROUPS.map(({ group, roles }) => `${group} gives ${roles.join(', ')}`).join(' and ')}:

  TOKEN=$(curl -s -X POST ${issuer.url}/token -H 'content-type: application/json' \\
    -d '{"email":"dev@example.com","groups":["sandbox-admins"]}' | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')
  curl -s $GW/v1/credentials -H "Authorization: Bearer $TOKEN"
  curl -s "$GW/v1/audit?actor=user:dev@example.com" -H "Authorization: Bearer $TOKEN"
`);

  const shutdown = (): void => {
    void closeGracefully(app)
      .then(() => Promise.all([simulators.close(), issuer.close()]))
      .then(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

/** Maps the issuer's groups in the demo tenant, once: the sandbox's database outlives a run. */
async function mapDemoGroups(mappings: GroupMappingsService, tenantId: string): Promise<void> {
  const actor = { actor: 'sandbox', onBehalfOf: null, keyId: null, requestId: randomUUID() };
  const existing = new Set((await mappings.list(tenantId, undefined, 200)).items.map((item) => item.group));
  for (const mapping of DEMO_GROUPS) {
    if (!existing.has(mapping.group)) await mappings.create(tenantId, mapping, actor);
  }
}

main().catch((error: unknown) => {
  const message =
    error instanceof ConfigError
      ? `configuration error: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
  console.error(`pipes-gateway sandbox: ${message}`);
  process.exit(1);
});
