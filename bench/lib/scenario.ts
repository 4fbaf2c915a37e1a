import type { PipesApiKey } from '../../sandbox';
import { validDashboardBody } from '../../test/fixtures/dashboard-bodies';
import { validCreateBody } from '../../test/fixtures/pipe-bodies';

export const ORGANIZATION_ID = '0b7f3c1e-2d4a-4c8e-9f10-2a3b4c5d6e7f';
export const SERVICE_ID = '5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

// Spread over several dashboards, as real editors would be: a PUT holds a per-dashboard lock.
export const DASHBOARD_IDS = Array.from(
  { length: 64 },
  (_, index) => `65f0c0ffee00000000${index.toString(16).padStart(6, '0')}`,
);

export const PIPE_BODY = JSON.stringify(validCreateBody('kafka'));
export const DASHBOARD_BODY = JSON.stringify(validDashboardBody());

export interface UpstreamsReady {
  type: 'ready';
  pipesUrl: string;
  dashboardsUrl: string;
  pipesKey: PipesApiKey;
  dashboardsToken: string;
  /** A pipe whose settings the read benchmark asks for. */
  pipeId: string;
}

/** Answer to `reset-pipes`: stored pipes dropped (creates pile up), a fresh pipe to read. */
export interface PipesReset {
  type: 'pipes-reset';
  pipeId: string;
}

export interface BaselineReady {
  type: 'ready';
  url: string;
}

/** Where the gateways deliver their audit log (children/sink-receivers.ts). */
export interface SinkReceiversReady {
  type: 'ready';
  webhookUrl: string;
  /** `tcp://host:port`, as AUDIT_SYSLOG_URL takes it. */
  syslogUrl: string;
}

/** Answer to `sink-tally`: the records each receiver has been delivered so far. */
export interface SinkTally {
  type: 'sink-tally';
  webhookRecords: number;
  syslogRecords: number;
}

export interface GatewayReady {
  type: 'ready';
  url: string;
  tenantId: string;
  /** admin + operator + auditor */
  key: string;
}

export function pipesAuthorization(key: PipesApiKey): string {
  return `Basic ${Buffer.from(`${key.keyId}:${key.keySecret}`).toString('base64')}`;
}

/** The service's pipes, or one pipe, or something of one pipe (`/settings`, `/scaling`). */
export function pipesPath(pipeId?: string, suffix = ''): string {
  const base = `/v1/organizations/${ORGANIZATION_ID}/services/${SERVICE_ID}/pipes`;
  return pipeId === undefined ? base : `${base}/${pipeId}${suffix}`;
}

export const SCALING_BODY = JSON.stringify({ replicas: 2, replicaCpuMillicores: 500, replicaMemoryGb: 1 });
export const SETTINGS_BODY = JSON.stringify({
  clickhouse_max_threads: 8,
  streaming_max_insert_wait_ms: 1000,
});
