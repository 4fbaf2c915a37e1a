import { hash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import type { UpstreamProblem } from '../common/problem/problem';
import { redactParsedJson, secretValuesOf } from '../redaction/redact';
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
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  /** Overrides the upstream's configured base address (self-hosted dashboards). */
  baseUrl?: string;
  authorization: string;
  /** The credential's secret values, which the upstream's answer must never carry back. */
  credentialSecrets: readonly string[];
  requestId: string;
  body?: unknown;
  /** Answer a successful call with `answerDigest`, for callers that remember what they derive from bodies. */
  digestAnswer?: boolean;
}

export interface UpstreamResponse<T> {
  status: number;
  /** Redacted: secret fields, secret patterns, and every secret value the request carried. */
  body: T;
  /**
   * SHA-256 of the answer's text and of the secrets it was redacted against: everything `body`
   * depends on, so equal digests mean equal bodies. Set only when the request asked for it.
   */
  answerDigest?: string;
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

interface AttemptResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

class AttemptFailure extends Error {
  constructor(
    readonly kind: 'timeout' | 'connection',
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * Collects one answer whole, straight from undici's dispatcher: the request API would wrap it in
 * a readable stream, an async resource and an abort signal per call, which cost a third of the
 * client's CPU per call here. The deadline is this handler's own timer: undici's headersTimeout
 * and bodyTimeout run on coarse timers that fire up to half a second early.
 */
class AttemptHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private settled = false;
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(
    timeoutMs: number,
    private readonly resolve: (response: AttemptResponse) => void,
    private readonly reject: (failure: AttemptFailure) => void,
  ) {
    this.timer = setTimeout(() => {
      this.fail(new AttemptFailure('timeout', 'timeout'));
      this.controller?.abort(new Error('deadline passed'));
    }, timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Queued for a connection past the deadline: the caller has its answer already.
    if (this.settled) controller.abort(new Error('deadline passed'));
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    status: number,
    headers: IncomingHttpHeaders,
  ): void {
    this.status = status;
    this.headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    const text = Buffer.concat(this.chunks).toString('utf8');
    // As a decoder would: a byte order mark is not part of the JSON.
    this.resolve({
      status: this.status,
      headers: this.headers,
      text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text,
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    const { name, code, message } = error as { name?: string; code?: string; message?: string };
    if (
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT' ||
      code === 'UND_ERR_CONNECT_TIMEOUT'
    ) {
      this.fail(new AttemptFailure('timeout', 'timeout'));
      return;
    }
    // The error code says what went wrong without echoing anything the request carried.
    this.fail(
      new AttemptFailure('connection', code ?? name ?? (message ? 'connection error' : 'unknown error')),
    );
  }

  private fail(failure: AttemptFailure): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.reject(failure);
  }
}

/**
 * One upstream's HTTP plumbing: auth header and request id on every call, an overall deadline
 * of UPSTREAM_TIMEOUT_MS across attempts, bounded jittered retries for idempotent methods only,
 * and every outcome mapped to the gateway's problem types (DESIGN section 4).
 *
 * Calls go to undici directly over a keep-alive pool. On the proxied read path, axios's request
 * pipeline (config merging, header objects, transforms) cost more CPU than undici itself, and
 * nothing here needs redirects, proxies or decompression.
 */
export class UpstreamHttp {
  private readonly agent: Agent;

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
    this.agent = new Agent({
      connect: { timeout: Math.min(timeoutMs, 5_000) },
      keepAliveTimeout: 30_000,
      connections: 64,
    });
  }

  close(): Promise<void> {
    return this.agent.close();
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
      let response: AttemptResponse;
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
      return this.outcome<T>(response, sentSecrets, request.digestAnswer === true);
    }
  }

  private attempt(request: UpstreamRequest, timeoutMs: number): Promise<AttemptResponse> {
    return new Promise((resolve, reject) => {
      const handler = new AttemptHandler(timeoutMs, resolve, reject);
      try {
        this.agent.dispatch(
          {
            ...target(request.baseUrl ?? this.baseUrl, request.path),
            method: request.method,
            headers: {
              authorization: request.authorization,
              'x-request-id': request.requestId,
              accept: 'application/json',
              ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
            },
            body: request.body === undefined ? undefined : JSON.stringify(request.body),
          },
          handler,
        );
      } catch (error) {
        handler.onResponseError(null, error as Error);
      }
    });
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

  private outcome<T>(
    response: AttemptResponse,
    sentSecrets: readonly string[],
    digestAnswer: boolean,
  ): UpstreamResponse<T> {
    const { status } = response;
    // No content is what a delete answers.
    if (status === 204) return { status, body: null as T };
    const parsed = parseBody(response.text);
    if (status >= 200 && status < 300) {
      if (parsed.kind !== 'json') throw upstreamMalformed(this.name, status);
      const body = redactParsedJson(parsed.value, sentSecrets) as T;
      return digestAnswer
        ? { status, body, answerDigest: answerDigest(response.text, sentSecrets) }
        : { status, body };
    }
    const body = redactParsedJson(parsed.value, sentSecrets);
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

function answerDigest(text: string, sentSecrets: readonly string[]): string {
  // Each secret with its length first, so that no two lists of secrets and text run together alike.
  let secrets = '';
  for (const secret of sentSecrets) secrets += `${secret.length}:${secret}`;
  return hash('sha256', `${sentSecrets.length}:${secrets}${text}`, 'base64');
}

function requestIdOf(body: unknown): string | undefined {
  const id = (body as { requestId?: unknown } | null)?.requestId;
  return typeof id === 'string' ? id : undefined;
}

/** Retry-After (seconds or an HTTP date) or the pipes API's X-RateLimit-Reset (seconds). */
function retryAfterMs(response: AttemptResponse): number | null {
  const header = firstValue(response.headers['retry-after'] ?? response.headers['x-ratelimit-reset']);
  if (header === undefined) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1_000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function firstValue(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}

const parsedBaseUrls = new Map<string, { origin: string; pathPrefix: string }>();

/**
 * Where a call goes. The path is appended to the base address, not resolved against it: a base
 * address with a path prefix (a self-hosted dashboards API) keeps it.
 */
function target(baseUrl: string, path: string): { origin: string; path: string } {
  let parsed = parsedBaseUrls.get(baseUrl);
  if (!parsed) {
    const url = new URL(baseUrl);
    parsed = { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, '') };
    // Base addresses come from configuration and stored credentials: few, but not bounded by code.
    if (parsedBaseUrls.size >= 1_000) parsedBaseUrls.clear();
    parsedBaseUrls.set(baseUrl, parsed);
  }
  return { origin: parsed.origin, path: `${parsed.pathPrefix}${path}` };
}
