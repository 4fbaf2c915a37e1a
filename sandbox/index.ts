export { checkFaultSpec, FaultInjector, FaultSpecError, LARGE_BODY_FRAME } from './faults';
export type { ActiveFault, FaultEffect, FaultPlan, FaultScope, FaultSpec, OutcomeFault } from './faults';
export { CONTROL_PREFIX, HttpSimulator } from './http-simulator';
export type { RecordedRequest, SimulatorOptions } from './http-simulator';
export type { RateLimit } from './rate-limiter';
export {
  DEFAULT_PIPE_STATE_DELAYS_MS,
  PIPE_STATES,
  PipesSimulator,
  startPipesSimulator,
} from './pipes-simulator';
export type {
  PipesApiKey,
  PipeState,
  PipeStateDelaysMs,
  PipesSimulatorOptions,
  StoredPipe,
} from './pipes-simulator';
export { DashboardSeedError, DashboardsSimulator, startDashboardsSimulator } from './dashboards-simulator';
export type { DashboardSeed, DashboardsSimulatorOptions } from './dashboards-simulator';
export { MAX_TAG_LENGTH, MAX_TAGS, MAX_TILES } from './dashboard-body';
export type { Dashboard, DashboardSeries, DashboardTile } from './dashboard-body';
export { DEMO_DASHBOARD_ID, runSimulators } from './run-simulators';
export type { RunningSimulators, RunSimulatorsOptions } from './run-simulators';
export { OidcIssuer, startOidcIssuer, unpublishedKey } from './oidc-issuer';
export type { MintOptions, OidcClient, OidcIssuerOptions, SigningAlgorithm, SigningKey } from './oidc-issuer';
