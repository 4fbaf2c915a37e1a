import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../auth/principal';
import type { AppConfig } from '../config/app-config';
import { AuditSinkKind, configuredSinkKinds } from '../audit-sinks/audit-sink';
import { AuditCheckpointsRepository } from './audit-checkpoints.repository';
import { AuditEventsRepository } from './audit-events.repository';
import { AuditService } from './audit.service';
import { WriteTransactions } from '../database/write-transactions';

export interface PruneResult {
  tenantId: string;
  removed: number;
  /** The first seq kept: the chain's new start. */
  startSeq: number;
}

const DAY_MS = 24 * 60 * 60_000;
// Soon enough that a restarted replica catches up, late enough to stay out of the start-up path.
const FIRST_RUN_DELAY_MS = 30_000;
const RUN_EVERY_MS = 60 * 60_000;
// A tenant pruned for the first time may shed millions of events in its one transaction.
const PRUNE_TIMEOUT_MS = 5 * 60_000;
const PRUNE_SLICE = 20_000;

/**
 * Deletes audit events older than AUDIT_RETENTION_DAYS. Only a prefix of each chain goes, and the
 * newest event always stays, and so does every event a configured audit sink has not delivered;
 * the chain row records the new start so verification still passes. The signed checkpoints of
 * the events removed go with them, once every configured sink has delivered them.
 */
@Injectable()
export class AuditRetentionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AuditRetentionService.name);
  private readonly retentionDays: number | null;
  private readonly sinks: AuditSinkKind[];
  private readonly timers: NodeJS.Timeout[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly events: AuditEventsRepository,
    private readonly checkpoints: AuditCheckpointsRepository,
    private readonly audit: AuditService,
    private readonly writes: WriteTransactions,
    config: ConfigService<AppConfig, true>,
  ) {
    this.retentionDays = config.get('auditRetentionDays', { infer: true });
    this.sinks = configuredSinkKinds(config.get('auditSinks', { infer: true }));
  }

  onApplicationBootstrap(): void {
    if (this.retentionDays === null) return;
    this.timers.push(
      setTimeout(() => void this.runScheduled(), FIRST_RUN_DELAY_MS),
      setInterval(() => void this.runScheduled(), RUN_EVERY_MS),
    );
    for (const timer of this.timers) timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    // A run in progress finishes its transaction before the database connection closes.
    await this.running;
  }

  /**
   * Prunes every tenant's expired events, and the checkpoints that signed only pruned events;
   * answers the tenants whose chain now starts later.
   */
  async pruneExpired(now = new Date()): Promise<PruneResult[]> {
    if (this.retentionDays === null) return [];
    const cutoff = new Date(now.getTime() - this.retentionDays * DAY_MS);
    // Candidates: chains whose first event has expired and is not also their newest.
    const candidates = await this.events.pruneCandidates(cutoff);
    const actor: Actor = { actor: 'gateway', onBehalfOf: null, keyId: null, requestId: randomUUID() };
    const results: PruneResult[] = [];
    for (const tenantId of candidates) {
      try {
        const result = await this.pruneTenant(tenantId, cutoff, now, actor);
        if (result) results.push(result);
      } catch (error) {
        // One tenant's failure (say, a backlog too large for the timeout) must not starve the rest.
        this.logger.warn({ err: error, tenantId }, 'could not prune expired audit events');
      }
    }
    // Also those a sink delivered only since an earlier run moved their chain's start past them.
    const checkpoints = await this.checkpoints.pruneBelowChainStarts(this.sinks);
    if (checkpoints > 0)
      this.logger.log({ removed: checkpoints }, 'pruned audit checkpoints of pruned events');
    return results;
  }

  private pruneTenant(tenantId: string, cutoff: Date, now: Date, actor: Actor): Promise<PruneResult | null> {
    return this.writes.run(
      tenantId,
      async (tx) => {
        const chain = await this.events.chainBounds(tx, tenantId);
        // The first event to keep: the oldest inside the window, or else the newest. Only the prefix
        // before it goes, so an event stamped early by a skewed clock waits for its predecessors.
        const kept = await this.events.firstKept(tx, tenantId, chain, cutoff, this.sinks);
        if (!kept || kept.seq <= chain.startSeq) return null;
        // In slices, each well inside the statement timeout, whatever the backlog. Appends only add
        // events past the head, so they need not wait for this.
        let removed = 0;
        for (let from = chain.startSeq; from < kept.seq; from += PRUNE_SLICE) {
          removed += await this.events.deleteRange(
            tx,
            tenantId,
            from,
            Math.min(from + PRUNE_SLICE, kept.seq),
          );
        }
        // Locking the chain row only now queues appenders behind one short update (the prune appends
        // too); a prune by another replica meanwhile already moved the start.
        const locked = await this.events.chainBounds(tx, tenantId, true);
        if (locked.startSeq >= kept.seq) return null;
        await this.events.moveStart(tx, tenantId, kept, now);
        await this.audit.append(tx, actor, {
          tenantId,
          action: 'audit.prune',
          target: `tenant:${tenantId}`,
          outcome: 'succeeded',
          details: {
            removed,
            startSeq: kept.seq,
            cutoff: cutoff.toISOString(),
            retentionDays: this.retentionDays,
          },
        });
        return { tenantId, removed, startSeq: kept.seq };
      },
      { timeout: PRUNE_TIMEOUT_MS },
    );
  }

  private async runScheduled(): Promise<void> {
    // An hour is plenty for one run; if one is still going, this tick has nothing to add.
    if (this.running) return;
    this.running = this.pruneExpired().then(
      (results) => {
        if (results.length === 0) return;
        const removed = results.reduce((sum, result) => sum + result.removed, 0);
        this.logger.log({ tenants: results.length, removed }, 'pruned expired audit events');
      },
      (error: unknown) => this.logger.warn({ err: error }, 'audit retention run failed; retrying next hour'),
    );
    await this.running;
    this.running = null;
  }
}
