import autocannon from 'autocannon';
import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { percentile } from './stats';

// Past this a request counts as failed: latency at a fixed rate means nothing once the target is saturated.
const FIXED_RATE_DEADLINE_MS = 5_000;

export interface LoadRequest {
  method: 'GET' | 'PUT' | 'POST' | 'PATCH';
  /** Called for every request, so a run can spread over several resources. */
  path: () => string;
  headers: Record<string, string>;
  /** Headers of one request alone, called for every request (an Idempotency-Key). */
  ownHeaders?: () => Record<string, string>;
  body?: string;
}

/** A request's headers, its own included. */
export function headersOf(request: LoadRequest): Record<string, string> {
  return request.ownHeaders ? { ...request.headers, ...request.ownHeaders() } : request.headers;
}

export interface LoadResult {
  /** Successful (2xx) responses per second. */
  rps: number;
  /** Latency of successful responses, ms. */
  p50: number;
  p99: number;
  ok: number;
  /** Non-2xx answers, connection errors and timeouts. */
  failed: number;
  /** Status codes other than 2xx, with their counts, to say why. */
  statuses: Record<string, number>;
  /**
   * At a fixed rate, the longest the sender fell behind its schedule, ms (0 in a closed loop). A
   * stall of the load generator sends its backlog at once: a burst the target did not cause.
   */
  maxSendLagMs: number;
}

/**
 * What the answers of one or more stretches of load add up to. A measurement taken in slices (each
 * target in turn, a second at a time) passes one tally to every slice of a target.
 */
export class LoadTally {
  /** Latency of each successful answer, ms. */
  readonly latencies: number[] = [];
  /** Non-2xx answers by status. */
  readonly statuses: Record<string, number> = {};
  /** Non-2xx answers, connection errors and missed deadlines. */
  failed = 0;
  /** Time under load, summed over the slices. */
  seconds = 0;
  maxSendLagMs = 0;

  countStatus(status: number): void {
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
  }

  result(): LoadResult {
    const sorted = Float64Array.from(this.latencies).sort();
    return {
      rps: this.latencies.length / this.seconds,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      ok: this.latencies.length,
      failed: this.failed,
      statuses: { ...this.statuses },
      maxSendLagMs: this.maxSendLagMs,
    };
  }
}

/**
 * Closed loop: `connections` clients, each sending its next request as soon as the last is answered,
 * for `seconds`. Throughput is what this measures. Latencies are taken from autocannon's per-response
 * event in fractional ms (its own histogram keeps whole ms only). Answers are added to `tally`.
 */
export async function closedLoop(
  url: string,
  request: LoadRequest,
  options: { connections: number; seconds: number },
  tally = new LoadTally(),
): Promise<LoadResult> {
  let nonOk = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: options.connections,
        duration: options.seconds,
        timeout: 10,
        requests: [
          {
            method: request.method,
            headers: request.headers,
            body: request.body,
            setupRequest: (prepared) => ({ ...prepared, path: request.path(), headers: headersOf(request) }),
          },
        ],
      },
      (error: unknown, finished) =>
        error ? reject(error instanceof Error ? error : new Error('autocannon failed')) : resolve(finished),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) tally.latencies.push(responseTime);
      else {
        tally.countStatus(statusCode);
        nonOk += 1;
      }
    });
  });
  tally.failed += nonOk + result.errors;
  tally.seconds += (result.finish.getTime() - result.start.getTime()) / 1000;
  return tally.result();
}

/** Keep-alive connections for fixedRate, as many as a target that falls behind needs. */
export function fixedRateAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 256 });
}

/**
 * Open loop at a fixed rate: requests leave evenly spaced (a 1 ms timer sends whatever is due),
 * whether or not earlier ones were answered, as independent callers would send them. autocannon's
 * rate option is not used for this: it sends each connection's per-second quota back to back at the
 * top of every second, which measures queueing behind its own burst rather than added latency.
 * Answers are added to `tally`.
 */
export async function fixedRate(
  url: string,
  request: LoadRequest,
  options: {
    rate: number;
    seconds: number;
    /** Connections kept from one call to the next; without it, a set opened and closed by this call. */
    agent?: Agent;
  },
  tally = new LoadTally(),
): Promise<LoadResult> {
  const target = new URL(url);
  const agent = options.agent ?? fixedRateAgent();
  const inFlight = new Set<Promise<void>>();

  const send = (): void => {
    const started = performance.now();
    const done = new Promise<void>((resolve) => {
      let settled = false;
      // Exactly once per request, whichever of answer, error or deadline comes first.
      const finish = (status: number | null): void => {
        if (settled) return;
        settled = true;
        if (status !== null && status >= 200 && status < 300)
          tally.latencies.push(performance.now() - started);
        else {
          if (status !== null) tally.countStatus(status);
          tally.failed += 1;
        }
        resolve();
      };
      const outgoing = httpRequest(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.path(),
          headers: headersOf(request),
          // Covers time queued for a socket too, so an overloaded target cannot stretch the run.
          signal: AbortSignal.timeout(FIXED_RATE_DEADLINE_MS),
        },
        (response) => {
          response.resume();
          response.on('end', () => finish(response.statusCode ?? 0));
          response.on('close', () => finish(null));
        },
      );
      outgoing.on('error', () => finish(null));
      outgoing.end(request.body);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };

  const total = Math.round(options.rate * options.seconds);
  const start = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - start) * options.rate) / 1000));
      if (sent < due) {
        const lag = now - (start + ((sent + 1) * 1000) / options.rate);
        tally.maxSendLagMs = Math.max(tally.maxSendLagMs, lag);
      }
      for (; sent < due; sent++) send();
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  await Promise.all(inFlight);
  if (options.agent === undefined) agent.destroy();
  // Over the time until the last answer: a target that falls behind shows a rate under the one asked for.
  tally.seconds += (performance.now() - start) / 1000;
  return tally.result();
}
