import axios, { AxiosInstance, AxiosResponse } from 'axios';
import { setTimeout as sleep } from 'node:timers/promises';
import type { UpstreamProblem } from '../common/problem/problem';
import { redactSecrets, secretValuesOf } from '../redaction/redact';
import { createUndiciAdapter } from './undici-adapter';
import {
  UpstreamCredentialRejectedException,
  upstreamClientError,
  upstreamMalformed,
  UpstreamName,
  upstreamRateLimited,
  upstreamServerError,
  upstreamServiceIdle,
  upstreamTimeout,
  upstreamUnreachable,
} from './upstream-errors';

export interface UpstreamRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  path: string;
  /** Overrides the upstream's configured base address (self-hosted dashboards). */
  baseUrl?: string;
  authorization: string;
  /** The credential's secret values, which the upstream's answer must never carry back. */
  credentialSecrets: readonly string[];
  requestId: string;
  body?: unknown;
}

export interface UpstreamResponse<T> {
  status: number;
  /** Redacted: secret fields, secret patterns, and every secret value the request carried. */
  body: T;
}

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest upstream Retry-After still waited for inside one call. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 100,
  maxDelayMs: 1_000,
  maxRetryAfterMs: 2_000,
};

// Worth another try for an idempotent call: the request may never have been processed, or the
// upstream said so itself.
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

class AttemptFailure extends Error {
  constructor(
    readonly kind: 'timeout' | 'connection',
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * One upstream's HTTP plumbing: auth header and request id on every call, an overall deadline
 * of UPSTREAM_TIMEOUT_MS across attempts, bounded jittered retries for idempotent methods only,
 * and every outcome mapped to the gateway's problem types (DESIGN section 4).
 */
export class UpstreamHttp {
  private readonly http: AxiosInstance;
  private readonly closeAdapter: () => Promise<void>;

  constructor(
    readonly name: UpstreamName,
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly retry: RetryPolicy = DEFAULT_RETRY_POLICY,
    private readonly onAttempt: (outcome: {
      status: number | 'timeout' | 'connection';
      durationMs: number;
      retry: boolean;
    }) => void = () => undefined,
  ) {
    const { adapter, close } = createUndiciAdapter({ connectTimeoutMs: Math.min(timeoutMs, 5_000) });
    this.closeAdapter = close;
    this.http = axios.create({
      adapter,
      responseType: 'text',
      // Bodies are JSON text already (attempt); axios's default would parse each one again to check it.
      transformRequest: [(data: unknown) => data],
      transformResponse: [(data: unknown) => data],
      validateStatus: () => true,
      maxRedirects: 0,
    });
  }

  close(): Promise<void> {
    return this.closeAdapter();
  }

  async send<T>(request: UpstreamRequest): Promise<UpstreamResponse<T>> {
    const idempotent = request.method === 'GET' || request.method === 'PUT';
    const deadline = Date.now() + this.timeoutMs;
    // An upstream may quote what it was sent ("password … rejected"), under any field name.
    const sentSecrets = secretValuesOf(request.body, [
      ...request.credentialSecrets,
      request.authorization.slice(request.authorization.indexOf(' ') + 1),
    ]);
    for (let attempt = 1; ; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw upstreamTimeout(this.name, this.timeoutMs);
      const mayRetry = idempotent && attempt < this.retry.maxAttempts;
      let response: AxiosResponse<string>;
      const started = Date.now();
      try {
        response = await this.attempt(request, remaining);
      } catch (error) {
        const failure = error as AttemptFailure;
        this.onAttempt({ status: failure.kind, durationMs: Date.now() - started, retry: mayRetry });
        if (mayRetry && (await this.backOff(attempt, deadline, null))) continue;
        if (failure.kind === 'timeout') throw upstreamTimeout(this.name, this.timeoutMs);
        throw upstreamUnreachable(this.name, failure.message);
      }
      const retryable = RETRYABLE_STATUSES.has(response.status);
      this.onAttempt({
        status: response.status,
        durationMs: Date.now() - started,
        retry: mayRetry && retryable,
      });
      if (mayRetry && retryable && (await this.backOff(attempt, deadline, retryAfterMs(response)))) continue;
      return this.outcome<T>(response, sentSecrets);
    }
  }

  private async attempt(request: UpstreamRequest, timeoutMs: number): Promise<AxiosResponse<string>> {
    try {
      return await this.http.request<string>({
        method: request.method,
        baseURL: request.baseUrl ?? this.baseUrl,
        url: request.path,
        timeout: timeoutMs,
        headers: {
          authorization: request.authorization,
          'x-request-id': request.requestId,
          accept: 'application/json',
          ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        data: request.body === undefined ? undefined : JSON.stringify(request.body),
      });
    } catch (error) {
      const { name, code, message } = error as { name?: string; code?: string; message?: string };
      if (
        name === 'TimeoutError' ||
        name === 'AbortError' ||
        code === 'UND_ERR_HEADERS_TIMEOUT' ||
        code === 'UND_ERR_BODY_TIMEOUT' ||
        code === 'UND_ERR_CONNECT_TIMEOUT'
      ) {
        throw new AttemptFailure('timeout', 'timeout');
      }
      // The error code says what went wrong without echoing anything the request carried.
      throw new AttemptFailure(
        'connection',
        code ?? name ?? (message ? 'connection error' : 'unknown error'),
      );
    }
  }

  /** Waits before the next attempt; false when the wait would not fit before the deadline. */
  private async backOff(attempt: number, deadline: number, retryAfter: number | null): Promise<boolean> {
    if (retryAfter !== null && retryAfter > this.retry.maxRetryAfterMs) return false;
    const exponential = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    const delay = retryAfter ?? Math.random() * exponential;
    if (Date.now() + delay >= deadline) return false;
    await sleep(delay);
    return true;
  }

  private outcome<T>(response: AxiosResponse<string>, sentSecrets: readonly string[]): UpstreamResponse<T> {
    const { status } = response;
    const parsed = parseBody(response.data);
    if (status >= 200 && status < 300) {
      if (parsed.kind !== 'json') throw upstreamMalformed(this.name, status);
      return { status, body: redactSecrets(parsed.value, sentSecrets) as T };
    }
    const body = redactSecrets(parsed.value, sentSecrets);
    const detail: UpstreamProblem = {
      status,
      ...(requestIdOf(body) ? { requestId: requestIdOf(body) } : {}),
      body,
    };
    if (status === 401 || status === 403)
      throw new UpstreamCredentialRejectedException(this.name, status, detail);
    if (status === 429)
      throw upstreamRateLimited(
        this.name,
        Math.max(1, Math.ceil((retryAfterMs(response) ?? 1_000) / 1_000)),
        detail,
      );
    if (status === 424) throw upstreamServiceIdle(detail);
    if (status >= 500) throw upstreamServerError(this.name, detail);
    throw upstreamClientError(this.name, detail);
  }
}

function parseBody(text: string): { kind: 'json' | 'text'; value: unknown } {
  if (text === '') return { kind: 'text', value: null };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'text', value: text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text };
  }
}

function requestIdOf(body: unknown): string | undefined {
  const id = (body as { requestId?: unknown } | null)?.requestId;
  return typeof id === 'string' ? id : undefined;
}

/** Retry-After (seconds or an HTTP date) or the pipes API's X-RateLimit-Reset (seconds). */
function retryAfterMs(response: AxiosResponse): number | null {
  const header = (response.headers['retry-after'] ?? response.headers['x-ratelimit-reset']) as
    string | undefined;
  if (header === undefined) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1_000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
