import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startOidcIssuer } from './oidc-issuer';
import { runSimulators } from './run-simulators';
import { PLATFORM_GRANTOR } from '../src/auth/role-grants';
import type { Role } from '../src/auth/roles';
import { closeGracefully, createApp } from '../src/bootstrap';
import { loadConfig } from '../src/config/app-config';
import { PrismaService } from '../src/database/prisma.service';
import { DEMO_SECRET, seedDemoTenant } from './demo-tenant';
import { listenOrNameSetting } from '../src/port-in-use';
import { loadSandboxSettings, SANDBOX_DATA_DIR } from './settings';
import { GroupMappingsService } from '../src/sign-in/group-mappings.service';
import { listeningBase } from '../src/start-banner';
import { startFailureLine } from '../src/start-failure';

const DEMO_TENANT = 'sandbox-demo';
const DEMO_ORGANIZATION = '00000000-0000-4000-8000-00000000de30';
const DEMO_SERVICE = '00000000-0000-4000-8000-0000000005e1';
// The local issuer's groups and what they may do in the demo tenant.
const DEMO_GROUPS: { group: string; roles: Role[] }[] = [
  { group: 'sandbox-admins', roles: ['admin', 'operator', 'auditor'] },
  { group: 'sandbox-operators', roles: ['operator'] },
  { group: 'sandbox-auditors', roles: ['auditor'] },
  { group: 'sandbox-viewers', roles: ['viewer'] },
];
/** The web console's client at the local issuer. */
const CONSOLE_CLIENT_ID = 'pipes-gateway-console';
/** In the data folder: what a shell needs to call the sandbox (`. data/sandbox/sandbox.env`). */
const SHELL_SETTINGS_FILE = 'sandbox.env';

/**
 * `npm run sandbox`: both upstream simulators on local ports and the gateway pointed at them, with
 * a demo tenant, a fresh admin key and sandbox credentials, so every route can be tried offline;
 * and a local OIDC issuer whose groups are mapped in the demo tenant, to try signing in. Its own
 * settings (ports, listen address, faults) are in settings.ts; the gateway's are its usual ones.
 */
async function main(): Promise<void> {
  const sandbox = loadSandboxSettings(process.env);
  const simulators = await listenOrNameSetting(
    { SANDBOX_PIPES_PORT: sandbox.pipesPort, SANDBOX_DASHBOARDS_PORT: sandbox.dashboardsPort },
    () =>
      runSimulators({
        host: sandbox.host,
        pipesPort: sandbox.pipesPort,
        dashboardsPort: sandbox.dashboardsPort,
      }),
    'SANDBOX_HOST',
  );
  for (const simulator of [simulators.pipes, simulators.dashboards]) simulator.faults.add(...sandbox.faults);

  const issuer = await listenOrNameSetting(
    { SANDBOX_OIDC_PORT: sandbox.oidcPort },
    () =>
      startOidcIssuer({
        host: sandbox.host,
        port: sandbox.oidcPort,
        audience: 'pipes-gateway-sandbox',
        suggestedGroups: DEMO_GROUPS.map(({ group }) => group),
      }),
    'SANDBOX_HOST',
  );

  const config = loadConfig({
    DATA_DIR: SANDBOX_DATA_DIR,
    ...process.env,
    SANDBOX: 'true',
    PIPES_API_URL: simulators.pipes.url,
    DASHBOARDS_API_URL: simulators.dashboards.url,
    OIDC_ISSUER: issuer.url,
    OIDC_AUDIENCE: issuer.audience,
    CONSOLE_OIDC_CLIENT_ID: CONSOLE_CLIENT_ID,
  });
  const app = await createApp(config);
  await listenOrNameSetting({ PORT: config.http.port }, () =>
    app.listen({ port: config.http.port, host: config.http.host }),
  );
  const base = listeningBase(app.getHttpServer(), config.http.host);
  // The console comes back to the page it was opened at, by either loopback name, and to Vite's
  // dev server (`npm run console:dev`) on its default port.
  const port = new URL(base).port;
  issuer.registerClient({
    clientId: CONSOLE_CLIENT_ID,
    redirectUris: [
      ...new Set([base, `http://localhost:${port}`, `http://127.0.0.1:${port}`, 'http://localhost:5173']),
    ].map((origin) => `${origin}/console/`),
  });

  const prisma = app.get(PrismaService);
  const { tenantId, key } = await seedDemoTenant(app, {
    tenantName: DEMO_TENANT,
    keyName: `sandbox-${randomBytes(3).toString('hex')}`,
    organizationId: DEMO_ORGANIZATION,
    upstreams: simulators,
  });
  await mapDemoGroups(app.get(GroupMappingsService), tenantId);
  const shell = {
    GW: base,
    KEY: key,
    ISSUER: issuer.url,
    PIPES_SIMULATOR: simulators.pipes.url,
    DASHBOARDS_SIMULATOR: simulators.dashboards.url,
  };
  const settingsFile = writeShellSettings(config.database.dataDir, shell);

  const pipes = `$GW/v1/organizations/${DEMO_ORGANIZATION}/services/${DEMO_SERVICE}/pipes`;
  console.log(`
pipes-gateway sandbox on ${base}  (docs: ${base}/docs, database: ${prisma.description})
demo tenant ${tenantId}: organization ${DEMO_ORGANIZATION}, service ${DEMO_SERVICE},
dashboard ${simulators.demoDashboard.id}, vault secret ${DEMO_SECRET}; a new admin/operator/auditor key
(shown once) is in ${settingsFile} with the gateway's and the OIDC issuer's addresses:

  . ${settingsFile}      # sets GW, KEY, ISSUER and the simulators': the README's walkthrough starts here
  export ${Object.entries(shell)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ')}      # the same, in another folder

  curl -s $GW/v1/credentials -H "Authorization: Bearer $KEY"
  curl -s ${pipes} -H "Authorization: Bearer $KEY" -H 'content-type: application/json' \\
    -d '{"name":"demo","source":{"kinesis":{"streamName":"orders","region":"us-east-1","accessKey":{"$secret":"${DEMO_SECRET}"}}},"destination":{"database":"default","table":"orders","columns":[{"name":"id","type":"String"}]},"fieldMappings":[{"sourceField":"id","destinationField":"id"}]}'
  curl -si $GW/v1/dashboards/${simulators.demoDashboard.id} -H "Authorization: Bearer $KEY"
  curl -s "$GW/v1/history/pipe-specs" -H "Authorization: Bearer $KEY"
  curl -s "$GW/v1/audit/verify" -H "Authorization: Bearer $KEY"

the web console: ${base}/console/ — sign in at the local issuer as anyone, with groups:
in the demo tenant ${DEMO_GROUPS.map(({ group, roles }) => `${group} gives ${roles.join(', ')}`).join('; ')}.

sign in as a person from a shell: local OIDC issuer on ${issuer.url}:

  TOKEN=$(curl -s -X POST $ISSUER/token -H 'content-type: application/json' \\
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
    if (!existing.has(mapping.group)) await mappings.create(tenantId, mapping, actor, PLATFORM_GRANTOR);
  }
}

/**
 * Writes shell assignments of `values` to the data folder, readable by its owner only (it holds a
 * key), and answers its path as a shell started here would name it.
 */
function writeShellSettings(dataDir: string, values: Record<string, string>): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, SHELL_SETTINGS_FILE);
  rmSync(path, { force: true });
  const lines = Object.entries(values).map(([name, value]) => `${name}='${value}'`);
  writeFileSync(
    path,
    `# npm run sandbox: its gateway, a key of its demo tenant, its OIDC issuer, its simulators. Load with: . ${path}\n${lines.join('\n')}\n`,
    { mode: 0o600 },
  );
  const shown = relative(process.cwd(), path);
  if (shown.startsWith('..')) return path;
  // `. name` without a slash would search PATH first.
  return shown.includes('/') ? shown : `./${shown}`;
}

main().catch((error: unknown) => {
  console.error(startFailureLine('pipes-gateway sandbox', error));
  process.exit(1);
});
