import { Logger } from '@nestjs/common';
import axios, { AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { hash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProblemException, type UpstreamProblem } from '../common/problem/problem';
import type { UpstreamProxy } from '../config/app-config';
import type { VaultValues } from '../credentials/vault-values';
import type { UpstreamAttempt } from '../metrics/metrics.service';
import {
  JsonTooDeepError,
  MAX_PARSED_JSON_DEPTH,
  redactParsedJson,
  redactText,
  secretValuesOf,
} from '../redaction/redact';
import { EchoNoting, vaultValuesCarried } from '../redaction/value-echo';
import { inSpan, SPAN_ATTRIBUTES, spanFailed, type SpanNotes, tracingOn } from '../tracing/tracing';
import { ANSWER_TOO_LARGE, undiciAdapter, UpstreamTransport } from './undici-adapter';
import {
  UpstreamCredentialRejectedException,
  upstreamAnswerTooLarge,
  upstreamClientError,
  upstreamInvalidAnswer,
  UpstreamName,
  upstreamRateLimited,
  upstreamServerError,
  upstreamServiceIdle,
  upstreamAddress,
  upstreamTimeout,
  upstreamUnreachable,
} from './upstream-errors';

export type UpstreamMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * What the envelope of a successful answer (`result` of the pipes API, `data` of the dashboards
 * API) must hold: an object, a list, or nothing the gateway reads (a delete: any JSON, or no body).
 */
export type UpstreamAnswer = 'object' | 'list' | 'none';

/** What a call is made with: the credential's secret, and the tenant's values its answer is scrubbed of. */
export interface UpstreamAccess<S> {
  secret: S;
  vault: VaultValues;
  valueEcho?: ValueEchoWatch;
  /** Before each attempt after the first: counts it in the credential's budget; false when it does not fit. */
  admitAttempt?: () => Promise<boolean>;
}

/**
 * Watches the caller's requests that carry a body for vault values they hold outside secret
 * places (value-echo.ts): such an answer, scrubbed, would confirm a guess.
 */
export interface ValueEchoWatch {
  /** Before a call with a body is sent: refuses it (429) once the caller's answers echoed too often. */
  admit(): Promise<void>;
  /** After an answer was scrubbed of vault values the request carried at `paths`. */
  echoed(paths: readonly string[]): Promise<void>;
}

export interface UpstreamRequest {
  method: UpstreamMethod;
  path: string;
  /** Overrides the upstream's configured base address (self-hosted dashboards). */
  baseUrl?: string;
  authorization: string;
  /** Secret values of this call (the credential, the body's), which its answer must never carry back. */
  credentialSecrets: readonly string[];
  /** Every secret value of the tenant, which no answer may carry either. */
  vault: VaultValues;
  valueEcho?: ValueEchoWatch;
  /** As UpstreamAccess's: a retry the budget has no room for is not made. */
  admitAttempt?: () => Promise<boolean>;
  requestId: string;
  body?: unknown;
  /** Answer a successful call with `answerDigest`, for callers that remember what they derive from bodies. */
  digestAnswer?: boolean;
  /**
   * Answer with `bodyJson` (and `answerDigest`), remembered by the digest, so that the same answer
   * again is neither parsed, redacted nor serialised again. For reads sent on as they are.
   */
  reuseAnswer?: boolean;
  /** Default `object`; a success that does not hold it is a 502 `upstream-invalid-answer`. */
  answer?: UpstreamAnswer;
}

export interface UpstreamResponse<T> {
  status: number;
  /**
   * Redacted: secret fields, secret patterns, every secret value the request carried and every
   * value of the tenant's vault.
   */
  body: T;
  /**
   * SHA-256 of the answer's text and of the identity of the vault it was redacted against (the
   * tenant and the version of its vault): everything `body` depends on, so equal digests mean
   * equal bodies. Set only when the request asked for it, and only when the vault holds every
   * secret the request carried.
   */
  answerDigest?: string;
  /** `body` as JSON text; set when the request asked for `reuseAnswer`. */
  bodyJson?: string;
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

/** How the connections are made: the answer cap and the proxies (AppConfig's `upstream` has both). */
export interface UpstreamTransportOptions {
  maxAnswerBytes: number;
  proxy: UpstreamProxy;
}

const DIRECT: UpstreamTransportOptions = {
  maxAnswerBytes: 4 * 1024 * 1024,
  proxy: { http: null, https: null, noProxy: '' },
};

// Methods tried again after a failure that may not have reached the upstream: a repeat answers as
// the first would have. Not DELETE: a repeat of one that did happen answers 404, which would tell
// the caller that nothing was there.
const RETRIED_METHODS = new Set<UpstreamMethod>(['GET', 'PUT']);

// Worth another try for a GET or PUT: the request may never have been processed, or the
// upstream said so itself.
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

const ENVELOPE: Record<UpstreamName, string> = { pipes: 'result', dashboards: 'data' };

// Characters of JSON the answers kept for reuse may hold in all; past it they start over.
const MAX_REUSED_ANSWER_CHARS = 1024 * 1024;

declare module 'axios' {
  interface AxiosRequestConfig {
    /** The upstream call this request is one attempt of; UpstreamHttp's interceptors read it. */
    upstreamCall?: UpstreamCall;
  }
}

/** One call of `send`, across its attempts. A class, so axios passes it along instead of copying it. */
class UpstreamCall {
  attempt = 0;
  attemptStartedAt = 0;

  constructor(
    readonly request: UpstreamRequest,
    readonly deadline: number,
    /** An upstream may quote what it was sent ("password … rejected"), under any field name. */
    readonly sentSecrets: readonly string[],
    private readonly maxAttempts: number,
    /** Scrubs answers of the vault, noting the values the body carried outside secret places; else null. */
    readonly echoes: EchoNoting | null,
  ) {}

  /** What answers are scrubbed with besides `sentSecrets`. */
  get vault(): EchoNoting | VaultValues['matcher'] {
    return this.echoes ?? this.request.vault.matcher;
  }

  get mayRetry(): boolean {
    return this.attempt < this.maxAttempts;
  }
}

/**
 * An attempt that failed in a way worth another: what to answer if there is no other, and how
 * long the upstream asked to wait.
 */
class RetryableAttempt extends Error {
  constructor(
    readonly problem: ProblemException,
    readonly retryAfterMs: number | null,
  ) {
    super(problem.message);
  }
}

type AttemptFailure = 'timeout' | 'connection' | 'too-large';

/**
 * One upstream's HTTP client: an axios instance over a keep-alive undici pool (undiciAdapter).
 * Its interceptors put the credential and the request id on every attempt, time every attempt
 * for the metrics, and map every outcome to the gateway's problem types (docs/api.md, "Errors"), in
 * that one place. `send` adds an overall deadline of UPSTREAM_TIMEOUT_MS across attempts and
 * bounded jittered retries of GET and PUT, honouring Retry-After.
 *
 * axios runs with none of its costly defaults on this path. The instance is built with
 * `new Axios` rather than `axios.create`, which would merge the library's global defaults (form
 * data environment, XSRF names, a header bucket per method) into every call and multiply axios's
 * CPU per call; axios merges and checks every key of the defaults and of each call's config, so
 * both carry only what they must (the adapter knows the base address and the answer cap). No
 * request or response transforms: the body is serialised once here and the answer parsed once.
 * Every status resolves, the request interceptor is synchronous, one response interceptor records
 * and settles each attempt, and the adapter hands axios the answer's headers as AxiosHeaders.
 */
export class UpstreamHttp {
  private readonly logger = new Logger(UpstreamHttp.name);
  private readonly transport: UpstreamTransport;
  private readonly client: InstanceType<typeof axios.Axios>;
  private readonly maxAnswerBytes: number;
  private readonly reusedAnswers = new ReusedAnswers(MAX_REUSED_ANSWER_CHARS);

  constructor(
    readonly name: UpstreamName,
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly retry: RetryPolicy = DEFAULT_RETRY_POLICY,
    private readonly onAttempt: (outcome: UpstreamAttempt) => void = () => undefined,
    options: UpstreamTransportOptions = DIRECT,
  ) {
    this.maxAnswerBytes = options.maxAnswerBytes;
    this.transport = new UpstreamTransport(timeoutMs, options.proxy);
    this.client = new axios.Axios({
      adapter: undiciAdapter(this.transport, {
        baseUrl,
        maxAnswerBytes: options.maxAnswerBytes,
        answerHeaders: ANSWER_HEADERS_READ,
      }),
    });
    this.client.interceptors.request.use(injectIdentity, null, { synchronous: true });
    this.client.interceptors.response.use(this.settle, this.settleFailure);
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  async send<T>(request: UpstreamRequest): Promise<UpstreamResponse<T>> {
    const { valueEcho, body } = request;
    if (valueEcho !== undefined && body !== undefined) await valueEcho.admit();
    const sentSecrets = secretValuesOf(body, [
      ...request.credentialSecrets,
      request.authorization.slice(request.authorization.indexOf(' ') + 1),
    ]);
    const carried =
      valueEcho === undefined || body === undefined ? null : vaultValuesCarried(body, request.vault.matcher);
    const echoes =
      carried === null || carried.size === 0 ? null : new EchoNoting(request.vault.matcher, carried);
    const call = new UpstreamCall(
      request,
      Date.now() + this.timeoutMs,
      // A carried value (a vault value, so the vault's scrub removes it too) is left to that scrub,
      // which notes it, even where a reference also put it at a secret place.
      echoes === null ? sentSecrets : sentSecrets.filter((secret) => !carried!.has(secret)),
      RETRIED_METHODS.has(request.method) ? this.retry.maxAttempts : 1,
      echoes,
    );
    try {
      // Untraced, the call runs as it is: no span to keep, no wrapper to pass through.
      if (!tracingOn()) return await this.attempts<T>(call);
      return await inSpan(
        `${this.name} API call`,
        { [SPAN_ATTRIBUTES.upstream]: this.name, 'http.request.method': request.method },
        (span) => this.traced(this.attempts<T>(call), call, span),
      );
    } finally {
      const echoed = call.echoes?.echoedPaths() ?? [];
      if (echoed.length > 0) await valueEcho!.echoed(echoed);
    }
  }

  private async attempts<T>(call: UpstreamCall): Promise<UpstreamResponse<T>> {
    const { request } = call;
    const data = request.body === undefined ? undefined : JSON.stringify(request.body);
    for (;;) {
      const remaining = call.deadline - Date.now();
      if (remaining <= 0) throw upstreamTimeout(this.name, this.timeoutMs);
      call.attempt += 1;
      try {
        const response = await this.client.request<UpstreamResponse<T>>({
          method: request.method,
          url: request.path,
          ...(request.baseUrl === undefined ? {} : { baseURL: request.baseUrl }),
          ...(data === undefined ? {} : { data }),
          timeout: remaining,
          upstreamCall: call,
        });
        return response.data;
      } catch (error) {
        if (!(error instanceof RetryableAttempt)) throw error;
        if (!(await this.backOff(call, error.retryAfterMs))) throw error.problem;
        if (request.admitAttempt && !(await request.admitAttempt())) throw error.problem;
      }
    }
  }

  /** The call's outcome on its span: the status answered or the problem type, and how many attempts. */
  private async traced<T>(
    sent: Promise<UpstreamResponse<T>>,
    call: UpstreamCall,
    span: SpanNotes,
  ): Promise<UpstreamResponse<T>> {
    try {
      const response = await sent;
      span.setAttribute('http.response.status_code', response.status);
      return response;
    } catch (error) {
      const problem = error instanceof ProblemException ? error.problem : null;
      if (problem?.upstream) span.setAttribute('http.response.status_code', problem.upstream.status);
      spanFailed(span, problem?.type ?? 'error');
      throw error;
    } finally {
      span.setAttribute(SPAN_ATTRIBUTES.attempts, call.attempt);
    }
  }

  /** Waits before the next attempt; false when the wait would not fit before the deadline. */
  private async backOff(call: UpstreamCall, retryAfter: number | null): Promise<boolean> {
    if (retryAfter !== null && retryAfter > this.retry.maxRetryAfterMs) return false;
    const exponential = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (call.attempt - 1));
    const delay = retryAfter ?? Math.random() * exponential;
    if (Date.now() + delay >= call.deadline) return false;
    await sleep(delay);
    return true;
  }

  /** An answer: recorded, then a success as UpstreamResponse, anything else as its problem. */
  private readonly settle = (response: AxiosResponse<string>): AxiosResponse<UpstreamResponse<unknown>> => {
    const call = response.config.upstreamCall!;
    const { status } = response;
    const retryable = call.mayRetry && RETRYABLE_STATUSES.has(status);
    this.onAttempt({ status, durationMs: Date.now() - call.attemptStartedAt, retry: retryable });
    if (status >= 200 && status < 300) return { ...response, data: this.success(response, call) };
    const problem = this.problemOf(response, call);
    if (retryable) throw new RetryableAttempt(problem, retryAfterMs(response.headers));
    throw problem;
  };

  /** No answer (the deadline passed, the connection failed, or the answer outgrew the cap): recorded, as its problem. */
  private readonly settleFailure = (error: unknown): never => {
    const call = callOf(error);
    if (!call) throw error;
    const failure = failureOf(error as AxiosError);
    this.onAttempt({
      status: failure,
      durationMs: Date.now() - call.attemptStartedAt,
      retry: call.mayRetry && failure !== 'too-large',
    });
    if (failure === 'too-large') throw upstreamAnswerTooLarge(this.name, this.maxAnswerBytes);
    const address = upstreamAddress(call.request.baseUrl ?? this.baseUrl);
    if (failure === 'connection') {
      // The cause (refused, reset, name not found…) is for operators only: told to callers, it
      // would say which ports of a host are open.
      this.logger.warn(
        { upstream: this.name, address, requestId: call.request.requestId, code: (error as AxiosError).code },
        'upstream connection failed',
      );
    }
    const problem =
      failure === 'timeout'
        ? upstreamTimeout(this.name, this.timeoutMs)
        : upstreamUnreachable(this.name, address);
    if (call.mayRetry) throw new RetryableAttempt(problem, null);
    throw problem;
  };

  private success(response: AxiosResponse<string>, call: UpstreamCall): UpstreamResponse<unknown> {
    const { status, data: text } = response;
    const { answer = 'object', digestAnswer, reuseAnswer } = call.request;
    const digest = digestAnswer || reuseAnswer ? answerDigest(text, call) : undefined;
    // An answer given before is not scrubbed again, so it would note no echo.
    if (reuseAnswer && digest !== undefined && call.echoes === null) {
      const reused = this.reusedAnswers.get(answer, digest);
      if (reused !== undefined) return new ReusedAnswer(status, digest, reused);
    }
    const value = text === '' && answer === 'none' ? null : parseJson(text);
    const missing = lacking(value, ENVELOPE[this.name], answer);
    if (missing !== null)
      throw upstreamInvalidAnswer(this.name, status, missing, redactedRequestId(value, call));
    let body: unknown;
    try {
      body = redactParsedJson(value, call.sentSecrets, call.vault);
    } catch (error) {
      if (!(error instanceof JsonTooDeepError)) throw error;
      const tooDeep = `a JSON body nested at most ${MAX_PARSED_JSON_DEPTH} levels deep`;
      throw upstreamInvalidAnswer(this.name, status, tooDeep, redactedRequestId(value, call));
    }
    const digested = digest === undefined ? {} : { answerDigest: digest };
    if (!reuseAnswer) return { status, body, ...digested };
    const bodyJson = JSON.stringify(body);
    if (digest !== undefined) this.reusedAnswers.remember(answer, digest, bodyJson);
    return { status, body, ...digested, bodyJson };
  }

  private problemOf(response: AxiosResponse<string>, call: UpstreamCall): ProblemException {
    const { status } = response;
    const text = response.data;
    const value = parseJson(text);
    const body = value !== NOT_JSON ? value : text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text || null;
    const redacted = redactedProblemBody(body, call);
    const detail: UpstreamProblem = { status, ...requestIdOf(redacted), body: redacted };
    if (status === 401 || status === 403)
      return new UpstreamCredentialRejectedException(this.name, status, detail);
    if (status === 429) {
      const seconds = Math.ceil((retryAfterMs(response.headers) ?? 1_000) / 1_000);
      return upstreamRateLimited(this.name, Math.max(1, seconds), detail);
    }
    if (status === 424) return upstreamServiceIdle(detail);
    if (status >= 500) return upstreamServerError(this.name, detail);
    return upstreamClientError(this.name, detail);
  }
}

/**
 * Credential and request id on every attempt; the attempt's clock starts here. A call brings no
 * headers of its own, so these are assigned by their lower-case names: AxiosHeaders.set would
 * search the headers for each name in every case first.
 */
function injectIdentity(config: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  const call = config.upstreamCall!;
  const headers = config.headers;
  headers.accept = 'application/json';
  headers['content-type'] = 'application/json';
  headers.authorization = call.request.authorization;
  headers['x-request-id'] = call.request.requestId;
  call.attemptStartedAt = Date.now();
  return config;
}

function callOf(error: unknown): UpstreamCall | undefined {
  return error instanceof AxiosError ? error.config?.upstreamCall : undefined;
}

function failureOf(error: AxiosError): AttemptFailure {
  if (error.code === AxiosError.ETIMEDOUT) return 'timeout';
  return error.code === ANSWER_TOO_LARGE ? 'too-large' : 'connection';
}

const NOT_JSON = Symbol('not JSON');

/** Redacted answers as JSON text by digest (UpstreamRequest.reuseAnswer), up to a number of characters in all. */
class ReusedAnswers {
  private readonly byKey = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  // The answer kind is part of the key: it decides whether the same text is a success at all.
  get(answer: UpstreamAnswer, digest: string): string | undefined {
    return this.byKey.get(`${answer}:${digest}`);
  }

  remember(answer: UpstreamAnswer, digest: string, json: string): void {
    if (json.length > this.maxChars) return;
    const key = `${answer}:${digest}`;
    if (this.chars + json.length > this.maxChars) {
      this.byKey.clear();
      this.chars = 0;
    }
    this.byKey.set(key, json);
    this.chars += json.length;
  }
}

/** An answer given before: its JSON text as kept, parsed again only if a caller reads `body`. */
class ReusedAnswer implements UpstreamResponse<unknown> {
  private parsed: unknown = NOT_JSON;

  constructor(
    readonly status: number,
    readonly answerDigest: string,
    readonly bodyJson: string,
  ) {}

  get body(): unknown {
    if (this.parsed === NOT_JSON) this.parsed = JSON.parse(this.bodyJson);
    return this.parsed;
  }
}

/** The answer's JSON; NOT_JSON for an empty or unparsable body. */
function parseJson(text: string): unknown {
  if (text === '') return NOT_JSON;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** An error answer's body as the problem quotes it: redacted, or in words when too deep to walk. */
function redactedProblemBody(body: unknown, call: UpstreamCall): unknown {
  try {
    return redactParsedJson(body, call.sentSecrets, call.vault);
  } catch (error) {
    if (error instanceof JsonTooDeepError) return `(${error.message}: not shown)`;
    throw error;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a success's body lacks for the answer asked for; null when it is usable. */
function lacking(value: unknown, envelope: string, answer: UpstreamAnswer): string | null {
  if (value === NOT_JSON) return 'a JSON body';
  if (answer === 'none') return null;
  if (!isObject(value)) return 'a JSON object';
  if (answer === 'list') return Array.isArray(value[envelope]) ? null : `a list in "${envelope}"`;
  return isObject(value[envelope]) ? null : `an object in "${envelope}"`;
}

/**
 * The answer's digest (UpstreamResponse.answerDigest), or none when the request carried a secret
 * the vault does not hold: the body then depends on more than the vault, and is not remembered.
 * No secret goes into it, only the vault's identity.
 */
function answerDigest(text: string, call: UpstreamCall): string | undefined {
  const { vault } = call.request;
  for (const secret of call.sentSecrets) if (!vault.matcher.has(secret)) return undefined;
  // The identity holds no newline, so no two identities and texts run together alike.
  return hash('sha256', `${vault.identity}\n${text}`, 'base64');
}

/** The request id of an answer that is not redacted as a whole (it cannot be used): redacted alone. */
function redactedRequestId(body: unknown, call: UpstreamCall): string | undefined {
  const { requestId } = requestIdOf(body);
  return requestId === undefined ? undefined : redactText(requestId, call.sentSecrets, call.vault);
}

function requestIdOf(body: unknown): { requestId?: string } {
  const id = isObject(body) ? body.requestId : undefined;
  return typeof id === 'string' ? { requestId: id } : {};
}

// The only answer headers this client reads (retryAfterMs); the adapter hands on no others.
const ANSWER_HEADERS_READ = ['retry-after', 'x-ratelimit-reset'];

/** Retry-After (seconds or an HTTP date) or the pipes API's X-RateLimit-Reset (seconds). */
function retryAfterMs(headers: AxiosResponse['headers']): number | null {
  const value: unknown = headers['retry-after'] ?? headers['x-ratelimit-reset'];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  if (typeof first !== 'string' && typeof first !== 'number') return null;
  const header = String(first);
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1_000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
