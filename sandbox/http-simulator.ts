import { createServer, STATUS_CODES } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { FaultInjector, FaultSpecError, LARGE_BODY_FRAME } from './faults';
import type { FaultSpec, OutcomeFault } from './faults';
import { FixedWindowRateLimiter } from './rate-limiter';
import type { RateLimit } from './rate-limiter';

/** Routes under this prefix steer the simulator; they are not part of any upstream API. */
export const CONTROL_PREFIX = '/__sandbox';

const DEFAULT_MAX_RECORDED_REQUESTS = 10_000;
const DEFAULT_FAULT_RETRY_AFTER_SECONDS = 1;
// Cut off mid-value, the way a body truncated by a failing proxy looks.
const MALFORMED_PAYLOAD = '{"status":200,"result":{"id":"';

export interface SimulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
  /** Per-credential rate limit; null or omitted turns it off. */
  rateLimit?: RateLimit | null;
  /** Oldest recorded requests are dropped past this count, so long benchmarks stay bounded (default 10000). */
  maxRecordedRequests?: number;
  /** Clock in epoch ms for timestamps, pipe states and rate-limit windows (default Date.now). */
  now?: () => number;
}

export type RequestBody =
  { kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'malformed'; text: string; error: string };

export interface SimulatorRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: RequestBody;
  remoteAddress: string;
  /** Set by an echoSecrets fault: the response carries back the secrets the request sent. */
  echoSecrets: boolean;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Query string including the leading `?`, or empty. */
  query: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON; the raw text when it was not valid JSON; undefined when there was no body. */
  body: unknown;
  /** ISO 8601 time of arrival. */
  receivedAt: string;
}

export interface SimulatorReply {
  status: number;
  headers: Record<string, string>;
  payload: string;
}

export function jsonReply(
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): SimulatorReply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    payload: JSON.stringify(value),
  };
}

export function textReply(
  status: number,
  text: string,
  headers: Record<string, string> = {},
): SimulatorReply {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers }, payload: text };
}

export function emptyReply(status = 204): SimulatorReply {
  return { status, headers: {}, payload: '' };
}

/** A route under CONTROL_PREFIX; `path` is matched against the rest of the path, its groups passed as params. */
export interface ControlRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: RegExp;
  handle(params: string[], body: unknown): SimulatorReply;
}

/**
 * The plumbing both upstream simulators share: the HTTP server, body reading, request recording,
 * fault injection, rate-limit state and the control routes. A simulator supplies only its API.
 */
export abstract class HttpSimulator {
  readonly faults = new FaultInjector();
  protected readonly now: () => number;
  protected readonly rateLimiter: FixedWindowRateLimiter | null;
  private readonly server: Server;
  private readonly options: SimulatorOptions;
  private readonly maxRecordedRequests: number;
  private recorded: RecordedRequest[] = [];
  // Aborted on close, so calls waiting out an injected latency end with it.
  private readonly closing = new AbortController();

  constructor(options: SimulatorOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.rateLimiter = options.rateLimit ? new FixedWindowRateLimiter(options.rateLimit, this.now) : null;
    this.maxRecordedRequests = options.maxRecordedRequests ?? DEFAULT_MAX_RECORDED_REQUESTS;
    this.server = createServer((request, response) => void this.serve(request, response));
  }

  /** Base URL, e.g. `http://127.0.0.1:43117`; valid once listening. */
  get url(): string {
    const host = this.options.host ?? '127.0.0.1';
    const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
    return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${this.port}`;
  }

  get port(): number {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('the simulator is not listening');
    return address.port;
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    return this;
  }

  /** Every upstream call received (control routes excluded), oldest first. */
  requests(): RecordedRequest[] {
    return structuredClone(this.recorded);
  }

  clearRequests(): void {
    this.recorded = [];
  }

  /** Clears faults, recorded requests, rate-limit windows and all stored data. */
  reset(): void {
    this.faults.clear();
    this.clearRequests();
    this.rateLimiter?.reset();
    this.resetData();
  }

  /** Stops listening and ends every open connection, hung ones included. */
  async close(): Promise<void> {
    if (!this.server.listening) return;
    this.closing.abort();
    const closed = new Promise<void>((resolve, reject) =>
      this.server.close((error) => (error ? reject(error) : resolve())),
    );
    this.server.closeAllConnections();
    await closed;
  }

  /** Answers one upstream call once faults have had their say. */
  protected abstract handle(request: SimulatorRequest): SimulatorReply;

  /** The upstream's own error answer for a status, used when a status fault brings no body. */
  protected abstract errorReply(status: number, message: string): SimulatorReply;

  /** The upstream's own 429 answer. */
  protected abstract rateLimitedReply(retryAfterSeconds: number): SimulatorReply;

  protected abstract resetData(): void;

  /** Control routes of one simulator, added to the shared ones. */
  protected controlRoutes(): ControlRoute[] {
    return [];
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const method = request.method ?? 'GET';
      const url = new URL(request.url ?? '/', 'http://simulator');
      const body = parseBody(await readText(request));
      if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
        send(response, this.control(method, url.pathname.slice(CONTROL_PREFIX.length), body));
        return;
      }
      this.record(method, url, request.headers, body);
      const plan = this.faults.take(method, url.pathname);
      if (plan.latencyMs > 0) await sleep(plan.latencyMs, undefined, { signal: this.closing.signal });
      if (plan.outcome?.kind === 'hang') return;
      if (plan.outcome?.kind === 'largeBody') {
        await streamLargeBody(response, plan.outcome);
        return;
      }
      if (plan.outcome?.kind === 'reset') {
        request.socket.resetAndDestroy();
        return;
      }
      const reply = plan.outcome
        ? this.faultReply(plan.outcome)
        : this.handle({
            method,
            path: url.pathname,
            headers: request.headers,
            body,
            remoteAddress: request.socket.remoteAddress ?? '',
            echoSecrets: plan.echoSecrets,
          });
      send(response, reply);
    } catch (error) {
      // A client that went away or a close during injected latency leaves nobody to answer.
      if (this.closing.signal.aborted || response.headersSent || response.destroyed) return;
      send(
        response,
        this.errorReply(500, `Simulator error: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  }

  private record(method: string, url: URL, headers: IncomingHttpHeaders, body: RequestBody): void {
    this.recorded.push({
      method,
      path: url.pathname,
      query: url.search,
      headers: { ...headers },
      body: body.kind === 'json' ? body.value : body.kind === 'malformed' ? body.text : undefined,
      receivedAt: new Date(this.now()).toISOString(),
    });
    if (this.recorded.length > this.maxRecordedRequests) this.recorded.shift();
  }

  private faultReply(
    outcome: Exclude<OutcomeFault, { kind: 'hang' | 'reset' | 'largeBody' }>,
  ): SimulatorReply {
    switch (outcome.kind) {
      case 'status': {
        const reply =
          outcome.body === undefined
            ? this.errorReply(outcome.status, STATUS_CODES[outcome.status] ?? 'Error')
            : typeof outcome.body === 'string'
              ? textReply(outcome.status, outcome.body)
              : jsonReply(outcome.status, outcome.body);
        return { ...reply, headers: { ...reply.headers, ...lowerCaseKeys(outcome.headers ?? {}) } };
      }
      case 'rateLimit':
        return this.rateLimitedReply(outcome.retryAfterSeconds ?? DEFAULT_FAULT_RETRY_AFTER_SECONDS);
      case 'malformedBody':
        return {
          status: 200,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          payload: MALFORMED_PAYLOAD,
        };
    }
  }

  private control(method: string, path: string, body: RequestBody): SimulatorReply {
    if (body.kind === 'malformed') return jsonReply(400, { error: `malformed JSON: ${body.error}` });
    for (const route of [...this.sharedControlRoutes(), ...this.controlRoutes()]) {
      const match = route.method === method ? route.path.exec(path) : null;
      if (match) return route.handle(match.slice(1), body.kind === 'json' ? body.value : undefined);
    }
    return jsonReply(404, { error: `no sandbox route ${method} ${CONTROL_PREFIX}${path}` });
  }

  private sharedControlRoutes(): ControlRoute[] {
    return [
      { method: 'GET', path: /^\/requests$/, handle: () => jsonReply(200, { requests: this.recorded }) },
      {
        method: 'DELETE',
        path: /^\/requests$/,
        handle: () => {
          this.clearRequests();
          return emptyReply();
        },
      },
      { method: 'GET', path: /^\/faults$/, handle: () => jsonReply(200, { faults: this.faults.list() }) },
      {
        method: 'POST',
        path: /^\/faults$/,
        handle: (_params, body) => {
          try {
            const specs = (Array.isArray(body) ? body : [body]) as FaultSpec[];
            return jsonReply(201, { faults: this.faults.add(...specs) });
          } catch (error) {
            if (error instanceof FaultSpecError) return jsonReply(400, { error: error.message });
            throw error;
          }
        },
      },
      {
        method: 'DELETE',
        path: /^\/faults$/,
        handle: () => {
          this.faults.clear();
          return emptyReply();
        },
      },
      {
        method: 'DELETE',
        path: /^\/faults\/([^/]+)$/,
        handle: ([id]) =>
          this.faults.remove(id) ? emptyReply() : jsonReply(404, { error: `no fault with id ${id}` }),
      },
      {
        method: 'POST',
        path: /^\/reset$/,
        handle: () => {
          this.reset();
          return emptyReply();
        },
      },
    ];
  }
}

async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): RequestBody {
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch (error) {
    return { kind: 'malformed', text, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * A 200 JSON body of `bytes` bytes, made as the client takes it: one chunk at a time, waiting
 * for the socket to drain, and stopping as soon as the client hangs up (or the simulator closes).
 */
async function streamLargeBody(
  response: ServerResponse,
  fault: Extract<OutcomeFault, { kind: 'largeBody' }>,
): Promise<void> {
  const padAt = LARGE_BODY_FRAME.length - 2;
  const [head, tail] = [LARGE_BODY_FRAME.slice(0, padAt), LARGE_BODY_FRAME.slice(padAt)];
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    ...(fault.announce ? { 'content-length': String(fault.bytes) } : {}),
  });
  response.write(head);
  const chunk = Buffer.alloc(64 * 1024, 'x');
  for (let left = fault.bytes - LARGE_BODY_FRAME.length; left > 0; left -= chunk.length) {
    if (response.destroyed) return;
    if (!response.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) {
      await new Promise<void>((resolve) => {
        const go = () => {
          response.off('drain', go).off('close', go);
          resolve();
        };
        response.on('drain', go).on('close', go);
      });
    }
  }
  response.end(tail);
}

function send(response: ServerResponse, reply: SimulatorReply): void {
  response.writeHead(reply.status, reply.headers);
  response.end(reply.payload);
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
