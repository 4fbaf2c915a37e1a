import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import type { PipesSecret } from '../credentials/credential-secret';
import { MetricsService } from '../metrics/metrics.service';
import { DEFAULT_RETRY_POLICY, UpstreamHttp, UpstreamResponse } from './upstream-http';

/** The pipes API's response envelope (pipes-api.md section 1). */
export interface PipesEnvelope<Result = Record<string, unknown>> {
  status: number;
  requestId: string;
  result: Result;
}

export interface PipeLocation {
  organizationId: string;
  serviceId: string;
}

/** The pipes management API: HTTP Basic with the tenant's key pair, JSON in an envelope. */
@Injectable()
export class PipesApiClient implements OnModuleDestroy {
  readonly http: UpstreamHttp;
  private readonly resource: string;

  constructor(config: ConfigService<AppConfig, true>, metrics: MetricsService) {
    const upstream = config.get('upstream', { infer: true });
    this.resource = upstream.pipesApiResource;
    this.http = new UpstreamHttp(
      'pipes',
      upstream.pipesApiUrl,
      upstream.timeoutMs,
      DEFAULT_RETRY_POLICY,
      (attempt) => metrics.upstreamAttempt('pipes', attempt),
      upstream,
    );
  }

  onModuleDestroy(): Promise<void> {
    return this.http.close();
  }

  createPipe(
    secret: PipesSecret,
    at: PipeLocation,
    body: unknown,
    requestId: string,
  ): Promise<UpstreamResponse<PipesEnvelope>> {
    return this.http.send({
      method: 'POST',
      path: this.pipesPath(at),
      authorization: basic(secret),
      credentialSecrets: [secret.keySecret],
      requestId,
      body,
    });
  }

  updatePipe(
    secret: PipesSecret,
    at: PipeLocation,
    pipeId: string,
    body: unknown,
    requestId: string,
  ): Promise<UpstreamResponse<PipesEnvelope>> {
    return this.http.send({
      method: 'PATCH',
      path: `${this.pipesPath(at)}/${encodeURIComponent(pipeId)}`,
      authorization: basic(secret),
      credentialSecrets: [secret.keySecret],
      requestId,
      body,
    });
  }

  private pipesPath(at: PipeLocation): string {
    return `/v1/organizations/${encodeURIComponent(at.organizationId)}/services/${encodeURIComponent(at.serviceId)}/${this.resource}`;
  }

  getSettings(
    secret: PipesSecret,
    at: PipeLocation,
    pipeId: string,
    requestId: string,
  ): Promise<UpstreamResponse<PipesEnvelope>> {
    return this.http.send({
      method: 'GET',
      path: `${this.pipesPath(at)}/${encodeURIComponent(pipeId)}/settings`,
      authorization: basic(secret),
      credentialSecrets: [secret.keySecret],
      requestId,
    });
  }
}

function basic(secret: PipesSecret): string {
  return `Basic ${Buffer.from(`${secret.keyId}:${secret.keySecret}`).toString('base64')}`;
}
