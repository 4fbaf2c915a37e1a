import { Inject, Injectable } from '@nestjs/common';
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  type HistogramConfiguration,
  Registry,
} from 'prom-client';
import type { DatabaseConnection } from '../database/database-connection';
import { DATABASE_CONNECTION } from '../database/database.tokens';
import { activeTraceIds, type TraceIds, tracingOn } from '../tracing/tracing';
import type { BreakerState } from '../upstream/circuit-breaker';
import { openMetricsText, type MetricsFormat } from './metrics-format';

/** What the audit sinks' gauges show, per sink kind. */
export interface AuditSinkLag {
  kind: string;
  eventsBehind: number;
  secondsBehind: number;
  lastDeliveryAt: Date | null;
  lastErrorAt: Date | null;
}

// One database read serves the four audit sink gauges of a scrape.
const AUDIT_SINK_READ_REUSE_MS = 1_000;

export interface UpstreamAttempt {
  status: number | 'timeout' | 'connection' | 'too-large';
  durationMs: number;
  retry: boolean;
}

/**
 * Prometheus metrics. Labels are routes, methods, statuses and upstream names only: never a
 * tenant, key, credential or anything a caller typed, so no secret can become a label.
 */
@Injectable()
export class MetricsService {
  // A registry per application instance keeps several gateways in one process (tests) apart.
  readonly registry = new Registry();
  // While tracing, each latency bucket keeps the trace of the latest sampled request it counted.
  private readonly exemplars = tracingOn();
  private readonly httpRequests = new Counter({
    name: 'gateway_http_requests_total',
    help: 'Requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = this.latencyHistogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'Time to answer, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  private readonly upstreamCalls = new Counter({
    name: 'gateway_upstream_requests_total',
    help: 'Upstream attempts by upstream and outcome (HTTP status, timeout, connection or too-large).',
    labelNames: ['upstream', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly upstreamDuration = this.latencyHistogram({
    name: 'gateway_upstream_request_duration_seconds',
    help: 'Duration of one upstream attempt.',
    labelNames: ['upstream'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  });
  private readonly upstreamRetries = new Counter({
    name: 'gateway_upstream_retries_total',
    help: 'Upstream attempts followed by a retry.',
    labelNames: ['upstream'] as const,
    registers: [this.registry],
  });
  private readonly openCircuits = new Gauge({
    name: 'gateway_upstream_open_circuits',
    help: 'Credentials whose circuit breaker is open or half-open, by upstream.',
    labelNames: ['upstream'] as const,
    registers: [this.registry],
  });
  private readonly valueEchoes = new Counter({
    name: 'gateway_vault_value_echoes_total',
    help: 'Upstream answers scrubbed of vault values the caller sent outside secret places, by upstream.',
    labelNames: ['upstream'] as const,
    registers: [this.registry],
  });
  private readonly breakerStates = new Map<string, BreakerState>();
  private auditSinks: () => Promise<AuditSinkLag[]> = () => Promise.resolve([]);
  private auditSinkRead: { at: number; lags: Promise<AuditSinkLag[]> } | null = null;
  private queuedAppends: () => number = () => 0;
  private writesInFlight: () => number = () => 0;
  private pipeEventsKept: () => number = () => 0;
  private pipeEventBytesKept: () => number = () => 0;

  constructor(@Inject(DATABASE_CONNECTION) database: DatabaseConnection) {
    collectDefaultMetrics({ register: this.registry });
    this.auditSinkGauge(
      'gateway_audit_sink_events_behind',
      'Audit events written but not yet delivered to the sink.',
      (lag) => lag.eventsBehind,
    );
    this.auditSinkGauge(
      'gateway_audit_sink_seconds_behind',
      'Age of the oldest audit event not yet delivered to the sink; 0 when none waits.',
      (lag) => lag.secondsBehind,
    );
    this.auditSinkGauge(
      'gateway_audit_sink_last_delivery_timestamp_seconds',
      'When the sink last took a batch (Unix time); absent before its first.',
      (lag) => lag.lastDeliveryAt && lag.lastDeliveryAt.getTime() / 1000,
    );
    this.auditSinkGauge(
      'gateway_audit_sink_last_error_timestamp_seconds',
      'When a delivery to the sink last failed (Unix time); absent if none has.',
      (lag) => lag.lastErrorAt && lag.lastErrorAt.getTime() / 1000,
    );
    const pool = new Gauge({
      name: 'gateway_db_pool_connections',
      help: 'Database pool connections by state (Postgres only).',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const stats = database.poolStats();
        if (!stats) return;
        pool.set({ state: 'total' }, stats.total);
        pool.set({ state: 'idle' }, stats.idle);
        pool.set({ state: 'waiting' }, stats.waiting);
      },
    });
    this.countedGauge(
      'gateway_audit_appends_queued',
      "Audit appends waiting in this process for their tenant's turn at its chain.",
      () => this.queuedAppends(),
    );
    this.countedGauge(
      'gateway_writes_in_flight',
      'Database writes this process runs, each holding one of its MAX_WRITES_IN_FLIGHT slots.',
      () => this.writesInFlight(),
    );
    this.countedGauge(
      'gateway_pipe_events_kept',
      'Pipe events this process keeps for readers resuming with Last-Event-ID.',
      () => this.pipeEventsKept(),
    );
    this.countedGauge(
      'gateway_pipe_events_kept_bytes',
      'Bytes of the pipe events this process keeps for resumes, at most PIPE_EVENTS_KEPT_BYTES.',
      () => this.pipeEventBytesKept(),
    );
  }

  /**
   * A histogram of this registry, with exemplars while tracing. prom-client refuses to register one
   * with exemplars in a registry of the Prometheus format, though it writes both formats from it
   * (render): it is registered after it is made.
   */
  private latencyHistogram<T extends string>(
    configuration: Omit<HistogramConfiguration<T>, 'registers' | 'enableExemplars'>,
  ): Histogram<T> {
    const histogram = new Histogram({ ...configuration, registers: [], enableExemplars: this.exemplars });
    this.registry.registerMetric(histogram);
    return histogram;
  }

  /** Where the audit service counts the appends it holds back (AuditService). */
  countQueuedAppends(count: () => number): void {
    this.queuedAppends = count;
  }

  /** Where write admission counts the writes it let in (WriteAdmission). */
  countWritesInFlight(count: () => number): void {
    this.writesInFlight = count;
  }

  /** Where the pipe event streams count the events they keep for resumes (PipeEvents). */
  countPipeEventsKept(count: () => number): void {
    this.pipeEventsKept = count;
  }

  /** Where the pipe event streams count the bytes of the events they keep (PipeEvents). */
  countPipeEventBytesKept(count: () => number): void {
    this.pipeEventBytesKept = count;
  }

  /** A gauge read from `count` whenever the metrics are scraped. */
  private countedGauge(name: string, help: string, count: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(count());
      },
    });
  }

  /** `trace`: the request's server span, while tracing. */
  observeHttp(method: string, route: string, status: number, seconds: number, trace?: TraceIds): void {
    this.httpRequests.inc({ method, route, status: String(status) });
    if (this.exemplars) {
      this.httpDuration.observe({
        labels: { method, route },
        value: seconds,
        exemplarLabels: exemplarOf(trace),
      });
    } else {
      this.httpDuration.observe({ method, route }, seconds);
    }
  }

  /** Called within the upstream call's span, which its exemplar names. */
  upstreamAttempt(upstream: string, attempt: UpstreamAttempt): void {
    this.upstreamCalls.inc({ upstream, outcome: String(attempt.status) });
    const seconds = attempt.durationMs / 1000;
    if (this.exemplars) {
      this.upstreamDuration.observe({
        labels: { upstream },
        value: seconds,
        exemplarLabels: exemplarOf(activeTraceIds()),
      });
    } else {
      this.upstreamDuration.observe({ upstream }, seconds);
    }
    if (attempt.retry) this.upstreamRetries.inc({ upstream });
  }

  breakerChanged(key: string, state: BreakerState): void {
    if (state === 'closed') this.breakerStates.delete(key);
    else this.breakerStates.set(key, state);
    const upstream = key.split(':')[0];
    const open = [...this.breakerStates.keys()].filter((k) => k.startsWith(`${upstream}:`)).length;
    this.openCircuits.set({ upstream }, open);
  }

  /** An answer was scrubbed of vault values its caller's request carried outside secret places. */
  valueEchoed(upstream: string): void {
    this.valueEchoes.inc({ upstream });
  }

  /** Where the audit sinks report their state (AuditSinksService), read from the database on scrape. */
  watchAuditSinks(read: () => Promise<AuditSinkLag[]>): void {
    this.auditSinks = read;
  }

  /** A gauge per sink kind; a scrape that cannot read the database leaves it without values. */
  private auditSinkGauge(name: string, help: string, valueOf: (lag: AuditSinkLag) => number | null): void {
    const readLags = () => this.readAuditSinks();
    new Gauge({
      name,
      help,
      labelNames: ['sink'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const lag of await readLags().catch(() => [])) {
          const value = valueOf(lag);
          if (value !== null) this.set({ sink: lag.kind }, value);
        }
      },
    });
  }

  private readAuditSinks(): Promise<AuditSinkLag[]> {
    const now = Date.now();
    if (!this.auditSinkRead || now - this.auditSinkRead.at > AUDIT_SINK_READ_REUSE_MS) {
      this.auditSinkRead = { at: now, lags: this.auditSinks() };
    }
    return this.auditSinkRead.lags;
  }

  render(format: MetricsFormat = 'prometheus'): Promise<string> {
    return format === 'openmetrics' ? openMetricsText(this.registry) : this.registry.metrics();
  }
}

const NO_EXEMPLAR = Object.freeze({});

/** An exemplar's labels: a trace that was sampled, so that it can be found; none otherwise. */
function exemplarOf(trace: TraceIds | undefined): Record<string, string> {
  return trace?.sampled ? { trace_id: trace.traceId, span_id: trace.spanId } : NO_EXEMPLAR;
}
