import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ProblemException } from '../common/problem/problem';
import type { AppConfig } from '../config/app-config';
import { AuditChainKeys } from '../crypto/audit-chain-keys';
import { AuditEventsRepository } from './audit-events.repository';
import { GENESIS_HASH } from './audit-chain';
import { AuditCheckpoint, isGenuineCheckpoint, signCheckpoint } from './audit-checkpoint';
import { AuditService } from './audit.service';
import type { ChainVerification } from './dto/audit.dto';

/**
 * Checkpoints of each tenant's chain head, signed with the chain key: written to the log at
 * AUDIT_CHECKPOINT_INTERVAL (for the tenants whose head moved) and on demand, and given to auditors
 * to keep. The log and the auditor's copy live outside the database, so a database writer who cuts
 * the newest events and moves the head back is found out: the chain no longer reaches them.
 */
@Injectable()
export class AuditCheckpointService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AuditCheckpoint');
  private readonly intervalMs: number | null;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | null = null;
  // The seq of the last checkpoint this process logged, per tenant.
  private readonly logged = new Map<string, number>();

  constructor(
    private readonly events: AuditEventsRepository,
    private readonly audit: AuditService,
    private readonly chainKeys: AuditChainKeys,
    config: ConfigService<AppConfig, true>,
  ) {
    this.intervalMs = config.get('auditCheckpointIntervalMs', { infer: true });
  }

  onApplicationBootstrap(): void {
    if (this.intervalMs === null) return;
    this.timer = setInterval(() => void this.logScheduled(), this.intervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.writing;
  }

  /** A signed checkpoint of the tenant's chain head now, also written to the log. */
  async checkpoint(tenantId: string): Promise<AuditCheckpoint> {
    const head = await this.events.chainHead(tenantId);
    return this.write({ tenantId, seq: head?.lastSeq ?? 0, hash: head?.lastHash ?? GENESIS_HASH });
  }

  /** Verifies the tenant's chain, which must still pass through `checkpoint` (one this gateway signed). */
  verifyAgainst(tenantId: string, checkpoint: AuditCheckpoint): Promise<ChainVerification> {
    if (checkpoint.tenantId !== tenantId || !isGenuineCheckpoint(this.chainKeys, checkpoint)) {
      throw new ProblemException({
        status: 422,
        type: 'checkpoint-not-genuine',
        title: 'Checkpoint not genuine',
        detail:
          "This checkpoint was not signed by this gateway for the caller's tenant, or was changed since; " +
          'nothing can be concluded from it. Use one as GET /v1/audit/checkpoint answered it.',
      });
    }
    return this.audit.verify(tenantId, { seq: checkpoint.seq, hash: checkpoint.hash });
  }

  /** Logs a checkpoint for every tenant whose chain head moved since this process last logged one. */
  async logMovedHeads(): Promise<void> {
    const heads = await this.events.chainHeads();
    for (const { tenantId, lastSeq, lastHash } of heads) {
      if (this.logged.get(tenantId) !== lastSeq) this.write({ tenantId, seq: lastSeq, hash: lastHash });
    }
  }

  private write(head: { tenantId: string; seq: number; hash: string }): AuditCheckpoint {
    const checkpoint = signCheckpoint(this.chainKeys, head, new Date());
    this.logger.log({ checkpoint }, 'audit chain checkpoint');
    this.logged.set(head.tenantId, head.seq);
    return checkpoint;
  }

  private async logScheduled(): Promise<void> {
    if (this.writing) return;
    this.writing = this.logMovedHeads().catch((error: unknown) =>
      this.logger.warn(
        { err: error },
        'could not write audit chain checkpoints; retrying at the next interval',
      ),
    );
    await this.writing;
    this.writing = null;
  }
}
