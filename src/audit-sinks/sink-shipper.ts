import type { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkpointRecord } from '../audit/audit-checkpoint';
import type { AuditSinksConfig } from '../config/app-config';
import { deliveryFailure, SinkRecord, SinkTransport } from './audit-sink';
import type { AuditEventLines, EventRange } from './audit-event-lines';
import { AuditSinksRepository, Backlog, PendingCheckpoint } from './audit-sinks.repository';

export type ShipperSettings = Omit<AuditSinksConfig, 'syslog' | 'webhook'>;

const FIRST_TENANT = '00000000-0000-0000-0000-000000000000';
// How often the replica shipping a sink looks at its lag, and the least time between two warnings.
const LAG_CHECK_MS = 10_000;
const LAG_WARN_EVERY_MS = 60_000;

/** The range of each tenant's events a batch takes: each in turn gets one more until it is full. */
export function allot(backlog: readonly Backlog[], size: number): EventRange[] {
  const taken = backlog.map(() => 0);
  for (let left = size, gave = true; left > 0 && gave;) {
    gave = false;
    backlog.forEach((tenant, index) => {
      if (left > 0 && taken[index] < tenant.lastSeq - tenant.after) {
        taken[index] += 1;
        left -= 1;
        gave = true;
      }
    });
  }
  return backlog
    .map((tenant, index) => ({
      tenantId: tenant.tenantId,
      after: tenant.after,
      through: tenant.after + taken[index],
    }))
    .filter((range) => range.through > range.after);
}

/** Each tenant's last seq in `records`, which are in seq order per tenant. */
function lastPerTenant(records: readonly SinkRecord[]): Map<string, number> {
  const last = new Map<string, number>();
  for (const record of records) last.set(record.tenantId, record.seq);
  return last;
}

/**
 * The checkpoints that can go after a batch's events: in the order signed, up to the first whose
 * tenant the sink will not have delivered through its seq (it waits, and those after it with it).
 */
export function readyCheckpoints(
  pending: readonly PendingCheckpoint[],
  batchReaches: ReadonlyMap<string, number>,
): PendingCheckpoint[] {
  const waiting = pending.findIndex(
    (checkpoint) =>
      checkpoint.seq > Math.max(checkpoint.deliveredThrough, batchReaches.get(checkpoint.tenantId) ?? 0),
  );
  return waiting === -1 ? [...pending] : pending.slice(0, waiting);
}

/**
 * Ships one sink: while this replica holds the sink's lease, it reads a page of undelivered
 * events, adds the signed checkpoints that they complete (each after the events it signs),
 * delivers them, and only then moves the cursors. A replica that dies mid-batch leaves the
 * cursors where the batch began and its lease to run out; whoever ships next sends the batch
 * again, byte for byte. A failed delivery is retried after a pause that doubles up to a cap.
 */
export class SinkShipper {
  private stopped = false;
  private wake: AbortController = new AbortController();
  private running: Promise<void> = Promise.resolve();
  private failures = 0;
  private nextTenant = FIRST_TENANT;
  private lagCheckedAt = 0;
  private leaseClaimedAt = -Infinity;
  private warnedAt = -Infinity;

  constructor(
    readonly transport: SinkTransport,
    private readonly sinks: AuditSinksRepository,
    private readonly lines: AuditEventLines,
    private readonly settings: ShipperSettings,
    private readonly holder: string,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.running = this.run();
  }

  /** Ends the round in progress (its delivery is finished or abandoned whole) and gives up the lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake.abort();
    await this.running;
    await this.sinks.release(this.transport.kind, this.holder).catch(() => undefined);
  }

  private async run(): Promise<void> {
    const { kind } = this.transport;
    while (!this.stopped) {
      let pause = this.settings.intervalMs;
      let holding = false;
      try {
        holding = await this.holdLease();
        if (holding) {
          const full = await this.shipBatch();
          if (this.failures > 0) this.logger.log({ sink: kind }, 'audit sink delivering again');
          this.failures = 0;
          // A full batch means more may be waiting: the next goes at once.
          if (full) pause = 0;
        } else {
          // Another replica ships it: look again well before its lease would run out.
          pause = Math.max(this.settings.intervalMs, Math.floor(this.settings.leaseMs / 4));
        }
      } catch (error) {
        this.failures += 1;
        pause = Math.min(this.settings.retryMinMs * 2 ** (this.failures - 1), this.settings.retryMaxMs);
        const failure = deliveryFailure(error);
        this.logger.warn(
          {
            sink: kind,
            address: this.transport.address,
            failures: this.failures,
            retryInMs: pause,
            error: failure,
          },
          'audit sink delivery failed; retrying',
        );
        await this.sinks.failed(kind, failure).catch(() => undefined);
      }
      if (holding) await this.checkLag();
      if (pause > 0 && !this.stopped)
        await sleep(pause, undefined, { signal: this.wake.signal }).catch(() => undefined);
    }
  }

  /**
   * Whether this replica holds the sink's lease: claimed or renewed in the database once a quarter
   * of it has run, so a round in between costs no round trip for it. The lease is counted from
   * before the claim was sent, so this replica never takes it to run longer than the database does.
   */
  private async holdLease(): Promise<boolean> {
    const { leaseMs } = this.settings;
    const now = Date.now();
    if (now - this.leaseClaimedAt < leaseMs / 4) return true;
    const claimed = await this.sinks.claim(this.transport.kind, this.holder, leaseMs);
    this.leaseClaimedAt = claimed ? now : -Infinity;
    return claimed;
  }

  /** Delivers one page of undelivered events and the checkpoints ready; answers whether a page was full. */
  private async shipBatch(): Promise<boolean> {
    const { kind } = this.transport;
    const { batchSize } = this.settings;
    // The checkpoints are read beside the events, on another connection.
    const pending = this.sinks.checkpoints(kind, batchSize);
    pending.catch(() => undefined);
    const ranges = allot(await this.sinks.backlog(kind, this.nextTenant, batchSize), batchSize);
    const events = ranges.length === 0 ? [] : await this.lines.records(ranges);
    const reaches = lastPerTenant(events);
    const checkpoints = readyCheckpoints(await pending, reaches);
    const records: SinkRecord[] = [
      ...events,
      ...checkpoints.map(({ tenantId, seq, at, jws }) => ({
        kind: 'checkpoint' as const,
        tenantId,
        seq,
        at,
        line: checkpointRecord(jws),
      })),
    ];
    if (records.length > 0) {
      await this.transport.deliver(records);
      const through = [...reaches].map(([tenantId, seq]) => ({ tenantId, seq }));
      await this.sinks.delivered(kind, through, checkpoints.at(-1)?.id ?? null);
    }
    if (ranges.length > 0) this.nextTenant = ranges[ranges.length - 1].tenantId;
    return events.length === batchSize || checkpoints.length === batchSize;
  }

  /** Warns, at most once a minute, while the oldest undelivered event is older than the setting. */
  private async checkLag(): Promise<void> {
    const now = Date.now();
    if (now - this.lagCheckedAt < Math.min(LAG_CHECK_MS, this.settings.lagWarnSeconds * 1000)) return;
    this.lagCheckedAt = now;
    try {
      const state = await this.sinks.state(this.transport.kind);
      const secondsBehind = state.oldestUndeliveredAt
        ? (now - state.oldestUndeliveredAt.getTime()) / 1000
        : 0;
      if (secondsBehind > this.settings.lagWarnSeconds && now - this.warnedAt >= LAG_WARN_EVERY_MS) {
        this.warnedAt = now;
        this.logger.warn(
          {
            sink: this.transport.kind,
            address: this.transport.address,
            eventsBehind: state.eventsBehind,
            secondsBehind: Math.round(secondsBehind),
            lastError: state.lastError,
          },
          'audit sink is falling behind',
        );
      }
    } catch (error) {
      this.logger.warn(
        { sink: this.transport.kind, error: deliveryFailure(error) },
        'could not read the audit sink lag',
      );
    }
  }
}
