import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import type { DashboardsSecret } from '../credentials/credential-secret';
import { MetricsService } from '../metrics/metrics.service';
import { createUpstreamHttp } from './create-upstream-http';
import {
  UpstreamAccess,
  UpstreamAnswer,
  UpstreamHttp,
  UpstreamRequest,
  UpstreamResponse,
} from './upstream-http';

/** `{data}` as the dashboards API sends it; the dashboard inside is passed through untouched. */
export interface DashboardEnvelope {
  data: Record<string, unknown> & { id?: string; tiles?: unknown[] };
}

/** A read with `bodyJson` to send on as it is (UpstreamRequest.reuseAnswer). */
export type SentOnAsRead<T> = UpstreamResponse<T> & { bodyJson: string };

/** The list answer: `{data: [...]}`. */
export interface DashboardListEnvelope {
  data: unknown[];
}

/** The dashboards API: Bearer token; a credential may name its own (allow-listed) base address. */
@Injectable()
export class DashboardsApiClient implements OnModuleDestroy {
  readonly http: UpstreamHttp;

  constructor(config: ConfigService<AppConfig, true>, metrics: MetricsService) {
    this.http = createUpstreamHttp('dashboards', config, metrics);
  }

  onModuleDestroy(): Promise<void> {
    return this.http.close();
  }

  /** The list to send on as it came: read again unchanged, it is not parsed again. */
  listDashboardsJson(
    access: UpstreamAccess<DashboardsSecret>,
    baseUrl: string | null,
    requestId: string,
  ): Promise<SentOnAsRead<DashboardListEnvelope>> {
    return this.call(access, baseUrl, 'GET', DASHBOARDS_PATH, requestId, {
      reuseAnswer: true,
      answer: 'list',
    }) as Promise<SentOnAsRead<DashboardListEnvelope>>;
  }

  createDashboard(
    access: UpstreamAccess<DashboardsSecret>,
    baseUrl: string | null,
    body: unknown,
    requestId: string,
  ): Promise<UpstreamResponse<DashboardEnvelope>> {
    return this.call(access, baseUrl, 'POST', DASHBOARDS_PATH, requestId, { body });
  }

  getDashboard(
    access: UpstreamAccess<DashboardsSecret>,
    baseUrl: string | null,
    id: string,
    requestId: string,
  ): Promise<UpstreamResponse<DashboardEnvelope>> {
    return this.call(access, baseUrl, 'GET', dashboardPath(id), requestId);
  }

  /** A dashboard to send on as it came: read again unchanged, it is not parsed again. */
  getDashboardJson(
    access: UpstreamAccess<DashboardsSecret>,
    baseUrl: string | null,
    id: string,
    requestId: string,
  ): Promise<SentOnAsRead<DashboardEnvelope>> {
    return this.call(access, baseUrl, 'GET', dashboardPath(id), requestId, {
      reuseAnswer: true,
    }) as Promise<SentOnAsRead<DashboardEnvelope>>;
  }

  replaceDashboard(
    access: UpstreamAccess<DashboardsSecret>,
    baseUrl: string | null,
    id: string,
    body: unknown,
    requestId: string,
  ): Promise<UpstreamResponse<DashboardEnvelope>> {
    return this.call(access, baseUrl, 'PUT', dashboardPath(id), requestId, { body });
  }

  /** Answers 204 without a body. */
  deleteDashboard(
    access: UpstreamAccess<DashboardsSecret>,
    baseUrl: string | null,
    id: string,
    requestId: string,
  ): Promise<UpstreamResponse<null>> {
    return this.call(access, baseUrl, 'DELETE', dashboardPath(id), requestId, {
      digestAnswer: false,
      answer: 'none',
    });
  }

  private call<T>(
    access: UpstreamAccess<DashboardsSecret>,
    baseUrl: string | null,
    method: UpstreamRequest['method'],
    path: string,
    requestId: string,
    // An answer holding one dashboard gets a digest: its ETag is remembered by it (DashboardEtags).
    {
      body,
      digestAnswer = true,
      reuseAnswer,
      answer,
    }: { body?: unknown; digestAnswer?: boolean; reuseAnswer?: boolean; answer?: UpstreamAnswer } = {},
  ): Promise<UpstreamResponse<T>> {
    return this.http.send({
      method,
      path,
      baseUrl: baseUrl ?? undefined,
      authorization: `Bearer ${access.secret.token}`,
      credentialSecrets: [access.secret.token],
      vault: access.vault,
      valueEcho: access.valueEcho,
      admitAttempt: access.admitAttempt,
      requestId,
      body,
      digestAnswer,
      reuseAnswer,
      answer,
    });
  }
}

const DASHBOARDS_PATH = '/api/v2/dashboards';

function dashboardPath(id: string): string {
  return `${DASHBOARDS_PATH}/${encodeURIComponent(id)}`;
}
