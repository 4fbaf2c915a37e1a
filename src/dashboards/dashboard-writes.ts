import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { pendingLimitMs } from '../idempotency/idempotency';
import { KeyedLimiter } from '../common/limiter';
import { ProblemException } from '../common/problem/problem';
import type { AppConfig } from '../config/app-config';
import { hasSqlState } from '../database/database-errors';
import type { TableWrite } from '../audit/audit-events.repository';
import { DashboardWriteHeadsRepository, type WriteClaim } from './dashboard-write-heads.repository';

/**
 * A dashboard write's hold on the dashboard, as writes of dashboard_write_heads that go with the
 * write's audit events: taken with the pending event, given back with the outcome.
 */
export interface DashboardClaim {
  /** Takes the claim, or fails the whole statement (nothing of it written) when another write has. */
  take(): TableWrite;
  giveBack(): TableWrite;
}

// Postgres fails a claim that cannot be taken with this SQLSTATE (the migration's dashboard_write_claimable).
const CLAIM_CONFLICT = 'GW409';
// How long to wait before reading again a claim another process holds.
const BUSY_RECHECK_MS = 25;
// Bounded: the dashboards a process has written, not every one a tenant has.
const MAX_REMEMBERED_DASHBOARDS = 10_000;

/**
 * Keeps the writes of each dashboard (replace, restore, delete) from overlapping, so that a write's
 * read of the dashboard, its If-Match comparison, the version it keeps and its write upstream all
 * see the same dashboard, in every gateway process sharing the database.
 *
 * In a process, a dashboard's writes queue. Across processes, each write claims the dashboard's
 * row (dashboard_write_heads) in the statement of its pending audit event, on the condition that
 * the row's generation is still the one this process knew before the write read the dashboard, and
 * that no other write holds it; the outcome's statement gives it back. No lock or database session
 * is held while the upstream is called, and a write costs no statement of its own: the generation
 * a process's own writes leave is remembered. When another process wrote the dashboard meanwhile,
 * or holds it, the claim fails with the whole pending statement, and the write starts again from
 * its read once that other write is done.
 */
@Injectable()
export class DashboardWrites {
  private readonly queue = new KeyedLimiter<string>(1);
  // The generation each dashboard's row has after this process's latest write of it.
  private readonly generations = new Map<string, number>();
  // A write that never gave its claim back (its process died) holds it this long: as long as a
  // write can take (the upstream deadline, plus the margin for everything else).
  private readonly claimMs: number;
  // How long a write waits for another process's write of the same dashboard.
  private readonly waitMs: number;

  constructor(
    private readonly heads: DashboardWriteHeadsRepository,
    config: ConfigService<AppConfig, true>,
  ) {
    const { timeoutMs } = config.get('upstream', { infer: true });
    this.claimMs = pendingLimitMs(timeoutMs);
    this.waitMs = timeoutMs;
  }

  /**
   * Runs `write` as the only write of the dashboard. `write` must read the dashboard after it is
   * called, and put the claim's take() in its pending event and giveBack() in every outcome: when
   * the claim fails, `write` is called again.
   */
  run<T>(tenantId: string, dashboardId: string, write: (claim: DashboardClaim) => Promise<T>): Promise<T> {
    const key = `${tenantId}/${dashboardId}`;
    return this.queue.run(key, async () => {
      const deadline = Date.now() + this.waitMs;
      for (;;) {
        const generation =
          this.generations.get(key) ?? (await this.readGeneration(tenantId, dashboardId, deadline));
        // Unknown until the write ends: a failure may or may not have taken the claim.
        this.generations.delete(key);
        const claim = new Claim(
          this.heads,
          { tenantId, dashboardId, generation, writer: randomUUID() },
          this.claimMs,
        );
        try {
          const result = await write(claim);
          this.remember(key, claim.taken ? generation + 1 : generation);
          return result;
        } catch (error) {
          if (!hasSqlState(error, CLAIM_CONFLICT)) throw error;
          if (Date.now() >= deadline) throw dashboardBusy();
        }
      }
    });
  }

  /** The row's generation once no other write holds the dashboard (0 for a dashboard never written). */
  private async readGeneration(tenantId: string, dashboardId: string, deadline: number): Promise<number> {
    for (;;) {
      const head = await this.heads.read(tenantId, dashboardId);
      if (head === undefined) return 0;
      if (!head.held) return head.generation;
      if (Date.now() + BUSY_RECHECK_MS >= deadline) throw dashboardBusy();
      await sleep(BUSY_RECHECK_MS);
    }
  }

  private remember(key: string, generation: number): void {
    if (this.generations.size >= MAX_REMEMBERED_DASHBOARDS) this.generations.clear();
    this.generations.set(key, generation);
  }
}

class Claim implements DashboardClaim {
  taken = false;

  constructor(
    private readonly heads: DashboardWriteHeadsRepository,
    // Its writer is its own id, not the request's: a caller may send the same X-Request-Id twice.
    private readonly claim: WriteClaim,
    private readonly claimMs: number,
  ) {}

  take(): TableWrite {
    this.taken = true;
    return this.heads.taken(this.claim, this.claimMs);
  }

  giveBack(): TableWrite {
    return this.heads.givenBack(this.claim);
  }
}

function dashboardBusy(): ProblemException {
  return new ProblemException({
    status: 409,
    type: 'dashboard-busy',
    title: 'Dashboard being written',
    detail:
      'Another write of this dashboard, through another gateway process, did not finish in time; nothing was ' +
      'written. Try again shortly.',
    headers: { 'retry-after': '1' },
  });
}
