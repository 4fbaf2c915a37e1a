import { percentile } from './stats';

/** What a receiver has been delivered, for `receipts` requests: per tenant, and in all. */
export interface ReceiptCounts {
  /** Distinct events received, by tenant id. */
  distinct: Record<string, number>;
  /** Events received again (an at-least-once delivery may repeat a batch). */
  repeats: number;
  checkpoints: number;
  /** Date.now() of the first and the latest event received since `since` was last set; null before one. */
  firstAt: number | null;
  lastAt: number | null;
  /** Distinct events received since then. */
  sinceCount: number;
}

/** Delivery lag of the events written from a moment on: when received, less the event's own time. */
export interface LagSummary {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * The audit records one receiver got (syslog or webhook): each event by tenant and seq, so that
 * what was lost or sent twice shows, and the lag of those written after `measureLagFrom`.
 */
export class Receipts {
  private readonly seqs = new Map<string, Set<number>>();
  private repeats = 0;
  private checkpoints = 0;
  private lagFrom: number | null = null;
  private lags: number[] = [];
  private firstAt: number | null = null;
  private lastAt: number | null = null;
  private sinceCount = 0;

  event(tenantId: string, seq: number, at: number, receivedAt = Date.now()): void {
    let seqs = this.seqs.get(tenantId);
    if (!seqs) this.seqs.set(tenantId, (seqs = new Set()));
    if (seqs.has(seq)) {
      this.repeats += 1;
      return;
    }
    seqs.add(seq);
    this.firstAt ??= receivedAt;
    this.lastAt = receivedAt;
    this.sinceCount += 1;
    if (this.lagFrom !== null && at >= this.lagFrom) this.lags.push(receivedAt - at);
  }

  checkpoint(): void {
    this.checkpoints += 1;
  }

  /** Lags are taken, from now on, of the events written at or after `from` (ms since the epoch). */
  measureLagFrom(from: number): void {
    this.lagFrom = from;
    this.lags = [];
  }

  /** The lags taken since measureLagFrom; they stop being taken. */
  lagSummary(): LagSummary {
    this.lagFrom = null;
    const sorted = Float64Array.from(this.lags).sort();
    return {
      count: sorted.length,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.length === 0 ? NaN : sorted[sorted.length - 1],
    };
  }

  /** firstAt, lastAt and sinceCount start again from the next event. */
  since(): void {
    this.firstAt = null;
    this.lastAt = null;
    this.sinceCount = 0;
  }

  counts(): ReceiptCounts {
    return {
      distinct: Object.fromEntries([...this.seqs].map(([tenantId, seqs]) => [tenantId, seqs.size])),
      repeats: this.repeats,
      checkpoints: this.checkpoints,
      firstAt: this.firstAt,
      lastAt: this.lastAt,
      sinceCount: this.sinceCount,
    };
  }
}
