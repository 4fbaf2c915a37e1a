import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import { basicCredentials, type PipesSecret } from '../credentials/credential-secret';
import { MetricsService } from '../metrics/metrics.service';
import { createUpstreamHttp } from './create-upstream-http';
import {
  UpstreamAccess,
  UpstreamAnswer,
  UpstreamHttp,
  UpstreamRequest,
  UpstreamResponse,
} from './upstream-http';

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

/** One pipe of a service. */
export interface PipePath extends PipeLocation {
  pipeId: string;
}

/** The pipes management API: HTTP Basic with the tenant's key pair, JSON in an envelope. */
@Injectable()
export class PipesApiClient implements OnModuleDestroy {
  readonly http: UpstreamHttp;
  private readonly resource: string;

  constructor(config: ConfigService<AppConfig, true>, metrics: MetricsService) {
    this.resource = config.get('upstream', { infer: true }).pipesApiResource;
    this.http = createUpstreamHttp('pipes', config, metrics);
  }

  onModuleDestroy(): Promise<void> {
    return this.http.close();
  }

  listPipes(
    access: UpstreamAccess<PipesSecret>,
    at: PipeLocation,
    requestId: string,
  ): Promise<UpstreamResponse<PipesEnvelope>> {
    return this.call(access, 'GET', this.pipesPath(at), requestId, { answer: 'list' });
  }

  /** `bodySecrets`: secret values the body holds (vault secrets put in for references). */
  createPipe(
    access: UpstreamAccess<PipesSecret>,
    at: PipeLocation,
    body: unknown,
    requestId: string,
    bodySecrets: readonly string[] = [],
  ): Promise<UpstreamResponse<PipesEnvelope>> {
    return this.call(access, 'POST', this.pipesPath(at), requestId, { body, bodySecrets });
  }

  getPipe(
    access: UpstreamAccess<PipesSecret>,
    at: PipePath,
    requestId: string,
  ): Promise<UpstreamResponse<PipesEnvelope>> {
    return this.call(access, 'GET', this.pipePath(at), requestId);
  }

  updatePipe(
    access: UpstreamAccess<PipesSecret>,
    at: PipePath,
    body: unknown,
    requestId: string,
    bodySecrets: readonly string[] = [],
  ): Promise<UpstreamResponse<PipesEnvelope>> {
    return this.call(access, 'PATCH', this.pipePath(at), requestId, { body, bodySecrets });
  }

  /** Answers the envelope without a `result`. */
  deletePipe(
    access: UpstreamAccess<PipesSecret>,
    at: PipePath,
    requestId: string,
  ): Promise<UpstreamResponse<PipesEnvelope>> {
    return this.call(access, 'DELETE', this.pipePath(at), requestId, { answer: 'none' });
  }

  changeState(
    access: UpstreamAccess<PipesSecret>,
    at: PipePath,
    body: unknown,
    requestId: string,
  ): Promise<UpstreamResponse<PipesEnvelope>> {
    return this.call(access, 'PATCH', `${this.pipePath(at)}/state`, requestId, { body });
  }

  scale(
    access: UpstreamAccess<PipesSecret>,
    at: PipePath,
    body: unknown,
    requestId: string,
  ): Promise<UpstreamResponse<PipesEnvelope>> {
    return this.call(access, 'PATCH', `${this.pipePath(at)}/scaling`, requestId, { body });
  }

  getSettings(
    access: UpstreamAccess<PipesSecret>,
    at: PipePath,
    requestId: string,
  ): Promise<UpstreamResponse<PipesEnvelope>> {
    return this.call(access, 'GET', `${this.pipePath(at)}/settings`, requestId);
  }

  replaceSettings(
    access: UpstreamAccess<PipesSecret>,
    at: PipePath,
    body: unknown,
    requestId: string,
  ): Promise<UpstreamResponse<PipesEnvelope>> {
    return this.call(access, 'PUT', `${this.pipePath(at)}/settings`, requestId, { body });
  }

  private call(
    access: UpstreamAccess<PipesSecret>,
    method: UpstreamRequest['method'],
    path: string,
    requestId: string,
    {
      body,
      bodySecrets = [],
      answer,
    }: { body?: unknown; bodySecrets?: readonly string[]; answer?: UpstreamAnswer } = {},
  ): Promise<UpstreamResponse<PipesEnvelope>> {
    return this.http.send({
      method,
      path,
      authorization: basic(access.secret),
      // The answer is searched for each of these: an upstream may quote what it was sent.
      credentialSecrets: [access.secret.keySecret, ...bodySecrets],
      vault: access.vault,
      valueEcho: access.valueEcho,
      admitAttempt: access.admitAttempt,
      requestId,
      body,
      answer,
    });
  }

  private pipesPath(at: PipeLocation): string {
    return `/v1/organizations/${encodeURIComponent(at.organizationId)}/services/${encodeURIComponent(at.serviceId)}/${this.resource}`;
  }

  private pipePath(at: PipePath): string {
    return `${this.pipesPath(at)}/${encodeURIComponent(at.pipeId)}`;
  }
}

function basic(secret: PipesSecret): string {
  return `Basic ${basicCredentials(secret)}`;
}
