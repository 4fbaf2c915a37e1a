import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import type { DashboardsSecret } from '../credentials/credential-secret';
import { MetricsService } from '../metrics/metrics.service';
import { DEFAULT_RETRY_POLICY, UpstreamHttp, UpstreamResponse } from './upstream-http';

/** `{data}` as the dashboards API sends it; the dashboard inside is passed through untouched. */
export interface DashboardEnvelope {
  data: Record<string, unknown> & { id?: string; tiles?: unknown[] };
}

/** The dashboards API: Bearer token; a credential may name its own (allow-listed) base address. */
@Injectable()
export class DashboardsApiClient implements OnModuleDestroy {
  readonly http: UpstreamHttp;

  constructor(config: ConfigService<AppConfig, true>, metrics: MetricsService) {
    const upstream = config.get('upstream', { infer: true });
    this.http = new UpstreamHttp(
      'dashboards',
      upstream.dashboardsApiUrl,
      upstream.timeoutMs,
      DEFAULT_RETRY_POLICY,
      (attempt) => metrics.upstreamAttempt('dashboards', attempt),
      upstream,
    );
  }

  onModuleDestroy(): Promise<void> {
    return this.http.close();
  }

  getDashboard(
    secret: DashboardsSecret,
    baseUrl: string | null,
    id: string,
    requestId: string,
  ): Promise<UpstreamResponse<DashboardEnvelope>> {
    return this.http.send({
      method: 'GET',
      path: dashboardPath(id),
      baseUrl: baseUrl ?? undefined,
      authorization: `Bearer ${secret.token}`,
      credentialSecrets: [secret.token],
      requestId,
      digestAnswer: true,
    });
  }

  replaceDashboard(
    secret: DashboardsSecret,
    baseUrl: string | null,
    id: string,
    body: unknown,
    requestId: string,
  ): Promise<UpstreamResponse<DashboardEnvelope>> {
    return this.http.send({
      method: 'PUT',
      path: dashboardPath(id),
      baseUrl: baseUrl ?? undefined,
      authorization: `Bearer ${secret.token}`,
      credentialSecrets: [secret.token],
      requestId,
      body,
      digestAnswer: true,
    });
  }
}

function dashboardPath(id: string): string {
  return `/api/v2/dashboards/${encodeURIComponent(id)}`;
}
