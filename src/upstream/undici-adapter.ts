import {
  AxiosError,
  AxiosHeaders,
  type AxiosAdapter,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import type { UpstreamProxy } from '../config/app-config';

/** The code of the AxiosError for an answer longer than `maxContentLength`. */
export const ANSWER_TOO_LARGE = 'ERR_ANSWER_TOO_LARGE';

// undici's own timers: they run coarse and fire up to half a second early, so the adapter keeps
// the deadline with a timer of its own and these only back it up.
const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * Keep-alive pools to the upstreams, straight or through the proxy the environment names for a
 * target's scheme (HTTP_PROXY for http, HTTPS_PROXY for https, NO_PROXY hosts go straight).
 */
export class UpstreamTransport {
  private readonly direct: Agent;
  private readonly viaProxy: Record<string, Dispatcher>;

  constructor(timeoutMs: number, proxy: UpstreamProxy) {
    const options: Agent.Options = {
      connect: { timeout: Math.min(timeoutMs, 5_000) },
      keepAliveTimeout: 30_000,
      connections: 64,
    };
    this.direct = new Agent(options);
    // http targets are sent to an http proxy in absolute form, as axios does; https ones tunnel
    // through CONNECT, so the proxy never sees what they carry.
    const through = (uri: string | null): Dispatcher =>
      uri === null
        ? this.direct
        : new EnvHttpProxyAgent({
            ...options,
            httpProxy: uri,
            httpsProxy: uri,
            noProxy: proxy.noProxy,
            proxyTunnel: false,
          });
    this.viaProxy = { 'http:': through(proxy.http), 'https:': through(proxy.https) };
  }

  for(protocol: string): Dispatcher {
    return this.viaProxy[protocol] ?? this.direct;
  }

  async close(): Promise<void> {
    const pools = new Set([this.direct, ...Object.values(this.viaProxy)]);
    await Promise.all([...pools].map((pool) => pool.close()));
  }
}

/** What the adapter knows of its upstream, rather than reading it from every call's config. */
export interface UpstreamAddress {
  /** Where paths are resolved, unless a call names its own `baseURL` (a self-hosted dashboards service). */
  baseUrl: string;
  /** The longest answer taken, in bytes. */
  maxAnswerBytes: number;
  /**
   * The answer headers handed on (lower-case names), the ones the client reads: axios normalises
   * every header of every answer twice, and an upstream behind a CDN sends a score of them.
   */
  answerHeaders: readonly string[];
}

/**
 * An axios adapter over undici: the answer is collected whole as text (a byte order mark
 * dropped), never more than `maxAnswerBytes` of it: a longer answer, announced or not, is aborted
 * as soon as it shows and its connection dropped. `timeout` covers the whole attempt, connection
 * included; every status resolves. No redirects, no decompression, no streams: the upstreams
 * speak plain JSON, and each of those costs CPU on every call.
 */
export function undiciAdapter(transport: UpstreamTransport, upstream: UpstreamAddress): AxiosAdapter {
  return (config) =>
    new Promise<AxiosResponse<string>>((resolve, reject) => {
      const handler = new AnswerHandler(config, upstream, resolve, reject);
      try {
        const to = target(config.baseURL ?? upstream.baseUrl, config.url ?? '');
        const headers = config.headers.toJSON() as Record<string, string>;
        // axios gives a body-less POST a form content type; a body-less request gets none.
        if (config.data === undefined) delete headers['content-type'];
        transport.for(to.protocol).dispatch(
          {
            origin: to.origin,
            path: to.path,
            method: (config.method ?? 'get').toUpperCase(),
            headers,
            body: config.data as string | undefined,
          },
          handler,
        );
      } catch (error) {
        handler.onResponseError(null, error as Error);
      }
    });
}

/**
 * Collects one answer straight from undici's dispatcher: its request API would wrap every call in
 * a readable stream, an async resource and an abort signal, a third of the client's CPU here.
 */
class AnswerHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private settled = false;
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: InternalAxiosRequestConfig,
    private readonly upstream: UpstreamAddress,
    private readonly resolve: (response: AxiosResponse<string>) => void,
    private readonly reject: (error: AxiosError) => void,
  ) {
    if (config.timeout)
      this.timer = setTimeout(
        () =>
          this.abort(new AxiosError(`timeout of ${config.timeout}ms exceeded`, AxiosError.ETIMEDOUT, config)),
        config.timeout,
      );
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
    if (Number(headers['content-length']) > this.upstream.maxAnswerBytes) this.abort(this.tooLarge());
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.bytes += chunk.length;
    if (this.bytes > this.upstream.maxAnswerBytes) this.abort(this.tooLarge());
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    const text = Buffer.concat(this.chunks, this.bytes).toString('utf8');
    this.resolve({
      // As a decoder would: a byte order mark is not part of the JSON.
      data: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text,
      status: this.status,
      statusText: '',
      headers: this.handedOnHeaders(),
      config: this.config,
      request: null,
    });
  }

  // Names come lowercased from undici, and axios normalises the headers once more after the
  // adapter: AxiosHeaders.set would do that work twice.
  private handedOnHeaders(): AxiosHeaders {
    const headers = new AxiosHeaders();
    for (const name of this.upstream.answerHeaders) {
      const value = this.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    return headers;
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    const code = (error as { code?: string }).code;
    if (code !== undefined && UNDICI_TIMEOUTS.has(code)) {
      this.fail(new AxiosError(error.message, AxiosError.ETIMEDOUT, this.config));
      return;
    }
    this.fail(AxiosError.from(error, code ?? AxiosError.ERR_NETWORK, this.config));
  }

  private tooLarge(): AxiosError {
    return new AxiosError(
      `maxContentLength size of ${this.upstream.maxAnswerBytes} exceeded`,
      ANSWER_TOO_LARGE,
      this.config,
    );
  }

  /** Settles with `error` and drops the request, and with it the connection if it was under way. */
  private abort(error: AxiosError): void {
    this.fail(error);
    this.controller?.abort(error);
  }

  private fail(error: AxiosError): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.chunks.length = 0;
    this.reject(error);
  }
}

const parsedBaseUrls = new Map<string, { protocol: string; origin: string; pathPrefix: string }>();

/**
 * Where a call goes. The path is appended to the base address, not resolved against it: a base
 * address with a path prefix (a self-hosted dashboards API) keeps it.
 */
function target(baseUrl: string, path: string): { protocol: string; origin: string; path: string } {
  let parsed = parsedBaseUrls.get(baseUrl);
  if (!parsed) {
    const url = new URL(baseUrl);
    parsed = { protocol: url.protocol, origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, '') };
    // Base addresses come from configuration and stored credentials: few, but not bounded by code.
    if (parsedBaseUrls.size >= 1_000) parsedBaseUrls.clear();
    parsedBaseUrls.set(baseUrl, parsed);
  }
  return { protocol: parsed.protocol, origin: parsed.origin, path: `${parsed.pathPrefix}${path}` };
}
