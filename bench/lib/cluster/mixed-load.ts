import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { BALANCER_KEEP_ALIVE_MS } from './haproxy';

// Past this an answer counts as failed: a request the cluster lost is not left pending for ever.
const DEADLINE_MS = 30_000;

/** One kind of request of the mix, sent at a steady rate. */
export interface Operation {
  /** What it is: `pipe.read`, `dashboard.replace`, … */
  kind: string;
  /** Requests per second. */
  rate: number;
  /** A write (its answer is checked against what it did) or a read. */
  write: boolean;
  /** The request to send next; `requestId` is its X-Request-Id, which the gateway passes upstream. */
  next(requestId: string): { method: string; path: string; authorization: string; body?: unknown };
}

/** One answer of the load, kept to check the writes' effects afterwards. */
export interface Answer {
  kind: string;
  write: boolean;
  requestId: string;
  method: string;
  path: string;
  /** 0 when no answer came (the connection failed or the deadline passed). */
  status: number;
  /** Why it failed: the problem's `type`, or the connection error's code. */
  reason?: string;
  /** The run's last phase while it was in flight. */
  phase: string;
  sentAt: number;
  ms: number;
  /** The answer's JSON, kept for writes only. */
  body?: unknown;
}

/**
 * The steady mixed load: every operation at its own rate, requests spaced evenly whether or not
 * earlier ones were answered (as independent callers send them), each with an X-Request-Id of its
 * own, over keep-alive connections to the balancer.
 */
export class MixedLoad {
  readonly answers: Answer[] = [];
  private phase = 'steady';
  // An idle connection is dropped by this side well before the balancer's keep-alive timeout ends
  // it, so that no request is sent on a connection the balancer is closing at that moment.
  private readonly agent = new Agent({
    keepAlive: true,
    maxSockets: 256,
    timeout: BALANCER_KEEP_ALIVE_MS / 2,
  });
  private readonly inFlight = new Set<Promise<void>>();
  private readonly unanswered = new Set<Answer>();
  private timer: NodeJS.Timeout | null = null;
  private sequence = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly operations: Operation[],
    /** Unique within the run, so each request id names one request. */
    private readonly idPrefix: string,
  ) {}

  start(): void {
    const started = performance.now();
    const sent = this.operations.map(() => 0);
    this.timer = setInterval(() => {
      const seconds = (performance.now() - started) / 1000;
      this.operations.forEach((operation, index) => {
        for (; sent[index] < Math.floor(seconds * operation.rate); sent[index]++) this.send(operation);
      });
    }, 10);
  }

  /**
   * What the requests sent from now on belong to, and those still unanswered too: a request counts
   * in the last phase it was in flight in (one in flight when a replica is killed, in that).
   */
  enter(phase: string): void {
    this.phase = phase;
    for (const answer of this.unanswered) answer.phase = phase;
  }

  /** Stops sending and waits for every answer. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.all(this.inFlight);
    this.agent.destroy();
  }

  private send(operation: Operation): void {
    const requestId = `${this.idPrefix}-${(this.sequence++).toString(36)}`;
    const { method, path, authorization, body } = operation.next(requestId);
    const answer: Answer = {
      kind: operation.kind,
      write: operation.write,
      requestId,
      method,
      path,
      status: 0,
      phase: this.phase,
      sentAt: Date.now(),
      ms: 0,
    };
    this.unanswered.add(answer);
    const started = performance.now();
    const done = new Promise<void>((resolve) => {
      let text = '';
      let settled = false;
      const finish = (status: number, error?: string): void => {
        if (settled) return;
        settled = true;
        answer.status = status;
        answer.ms = performance.now() - started;
        const ok = status >= 200 && status < 300;
        if (operation.write && ok) answer.body = parsed(text);
        if (!ok) answer.reason = error ?? problemType(text);
        this.unanswered.delete(answer);
        this.answers.push(answer);
        resolve();
      };
      const outgoing = request(`${this.baseUrl}${path}`, {
        method,
        agent: this.agent,
        headers: {
          authorization,
          'x-request-id': requestId,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        signal: AbortSignal.timeout(DEADLINE_MS),
      });
      outgoing.on('response', (response) => {
        response.setEncoding('utf8');
        // Kept for writes (their answers are checked) and for problems (why they failed).
        response.on('data', (chunk: string) => {
          if (operation.write || (response.statusCode ?? 0) >= 300) text += chunk;
        });
        response.on('end', () => finish(response.statusCode ?? 0));
        response.on('close', () =>
          finish(response.complete ? (response.statusCode ?? 0) : 0, response.complete ? undefined : 'cut'),
        );
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) => finish(0, error.code ?? error.name));
      outgoing.end(body === undefined ? undefined : JSON.stringify(body));
    });
    this.inFlight.add(done);
    void done.then(() => this.inFlight.delete(done));
  }
}

/** The last part of a problem document's `type`, or the heading of the balancer's own page. */
function problemType(text: string): string {
  const type = (parsed(text) as { type?: unknown } | null)?.type;
  if (typeof type === 'string') return type.slice(type.lastIndexOf('/') + 1);
  const heading = /<h1>([^<]*)<\/h1>\s*([^<.]*)/.exec(text);
  return heading ? `balancer: ${heading[2].trim()}` : text.slice(0, 60).trim();
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
