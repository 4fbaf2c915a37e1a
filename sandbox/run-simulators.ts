import { randomBytes, randomUUID } from 'node:crypto';
import { CONTROL_PREFIX } from './http-simulator';
import type { Dashboard } from './dashboard-body';
import { startDashboardsSimulator } from './dashboards-simulator';
import type { DashboardsSimulator } from './dashboards-simulator';
import { startPipesSimulator } from './pipes-simulator';
import type { PipesApiKey, PipesSimulator } from './pipes-simulator';
import type { RateLimit } from './rate-limiter';

export interface RunSimulatorsOptions {
  /** 0 picks a free port. */
  pipesPort: number;
  dashboardsPort: number;
  host?: string;
  /** The key the pipes simulator accepts; a random one when left out. */
  pipesKey?: PipesApiKey;
  /** The token the dashboards simulator accepts; a random one when left out. */
  dashboardsToken?: string;
  /** Defaults to the real service's 10 per 10 s; null turns it off. */
  pipesRateLimit?: RateLimit | null;
  /** Defaults to the real service's 100 per 60 s; null turns it off. */
  dashboardsRateLimit?: RateLimit | null;
  /** Where the URLs and credentials are printed (default console.log). */
  print?: (line: string) => void;
}

export interface RunningSimulators {
  pipes: PipesSimulator;
  dashboards: DashboardsSimulator;
  pipesKey: PipesApiKey;
  dashboardsToken: string;
  /** Seeded so a dashboard can be read and replaced right away (the API cannot create one). */
  demoDashboard: Dashboard;
  close(): Promise<void>;
}

/** The demo dashboard's id: fixed, so the README's walkthrough can name it. */
export const DEMO_DASHBOARD_ID = '65f0c0ffee0000000000beef';

const REAL_PIPES_RATE_LIMIT: RateLimit = { limit: 10, windowMs: 10_000 };
const REAL_DASHBOARDS_RATE_LIMIT: RateLimit = { limit: 100, windowMs: 60_000 };

/** Starts both simulators for local use and prints how to reach them. */
export async function runSimulators(options: RunSimulatorsOptions): Promise<RunningSimulators> {
  const print = options.print ?? console.log;
  const pipesKey = options.pipesKey ?? {
    keyId: `sandbox-${randomUUID()}`,
    keySecret: randomBytes(24).toString('base64url'),
  };
  const dashboardsToken = options.dashboardsToken ?? randomBytes(24).toString('hex');
  const pipes = await startPipesSimulator({
    port: options.pipesPort,
    host: options.host,
    keys: [pipesKey],
    rateLimit: options.pipesRateLimit === undefined ? REAL_PIPES_RATE_LIMIT : options.pipesRateLimit,
  });
  const dashboards = await startDashboardsSimulator({
    port: options.dashboardsPort,
    host: options.host,
    tokens: [dashboardsToken],
    rateLimit:
      options.dashboardsRateLimit === undefined ? REAL_DASHBOARDS_RATE_LIMIT : options.dashboardsRateLimit,
  }).catch(async (error: unknown) => {
    await pipes.close();
    throw error;
  });
  const demoDashboard = dashboards.seedDashboard({
    id: DEMO_DASHBOARD_ID,
    name: 'Sandbox demo',
    tags: ['sandbox'],
    tiles: [
      {
        name: 'Events per minute',
        x: 0,
        y: 0,
        w: 6,
        h: 3,
        series: [{ type: 'time', dataSource: 'events', aggFn: 'count', where: 'level:error', groupBy: [] }],
      },
    ],
  });

  print(`pipes API simulator:      ${pipes.url}  (Basic ${pipesKey.keyId}:${pipesKey.keySecret})`);
  print(`dashboards API simulator: ${dashboards.url}  (Bearer ${dashboardsToken})`);
  print(`demo dashboard id:        ${demoDashboard.id}`);
  print(
    `faults and recorded requests: ${CONTROL_PREFIX}/faults, ${CONTROL_PREFIX}/requests on either simulator`,
  );

  return {
    pipes,
    dashboards,
    pipesKey,
    dashboardsToken,
    demoDashboard,
    close: async () => {
      await Promise.all([pipes.close(), dashboards.close()]);
    },
  };
}

function portArgument(name: string, fallback: number): number {
  const prefix = `--${name}=`;
  const argument = process.argv.find((value) => value.startsWith(prefix));
  const port = argument === undefined ? fallback : Number(argument.slice(prefix.length));
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${prefix}<port> must be 0 to 65535`);
  return port;
}

if (require.main === module) {
  runSimulators({
    pipesPort: portArgument('pipes-port', 4010),
    dashboardsPort: portArgument('dashboards-port', 4020),
  })
    .then((running) => {
      const stop = (): void => void running.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    })
    .catch((error: unknown) => {
      console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
}
