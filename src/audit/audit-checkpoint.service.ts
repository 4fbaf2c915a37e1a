import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ProblemException } from '../common/problem/problem';
import type { AppConfig } from '../config/app-config';
import { PrismaService } from '../database/prisma.service';
import { AuditChainKeys } from '../crypto/audit-chain-keys';
import { AuditSigningKeys, SigningJwk } from '../crypto/audit-signing-keys';
import { AuditCheckpointsRepository } from './audit-checkpoints.repository';
import { AuditEventsRepository, ChainHead } from './audit-events.repository';
import { GENESIS_HASH } from './audit-chain';
import {
  AuditCheckpoint,
  checkpointLine,
  isGenuineCheckpoint,
  KeyedCheckpoint,
  signCheckpoint,
} from './audit-checkpoint';
import { AuditService, type SignedPoint } from './audit.service';
import { backfillDigests } from './digest-backfill';
import type { ChainVerification } from './dto/audit.dto';

/**
 * Checkpoints of each tenant's chain head, signed twice: with the chain key (the gateway checks it
 * on POST /v1/audit/verify) and with the active AUDIT_SIGNING_KEYS key over the head's public
 * digest (anyone checks it with the published keys). Made at AUDIT_CHECKPOINT_INTERVAL for the
 * tenants whose head moved, on demand, and at the end of an export; written to the log and kept in
 * audit_checkpoints for the sinks. Copies outside the database let a cut of the newest events be
 * found: the chain no longer reaches them.
 */
@Injectable()
export class AuditCheckpointService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AuditCheckpoint');
  private readonly intervalMs: number | null;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | null = null;

  constructor(
    private readonly events: AuditEventsRepository,
    private readonly kept: AuditCheckpointsRepository,
    private readonly audit: AuditService,
    private readonly chainKeys: AuditChainKeys,
    private readonly signingKeys: AuditSigningKeys,
    private readonly prisma: PrismaService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.intervalMs = config.get('auditCheckpointIntervalMs', { infer: true });
  }

  async onApplicationBootstrap(): Promise<void> {
    // Before serving: the public chain of events written before it existed, or by an older replica.
    const computed = await backfillDigests(this.prisma, this.events);
    if (computed > 0) this.logger.log(`computed the public digests of ${computed} audit event(s)`);
    if (this.intervalMs === null) return;
    this.timer = setInterval(() => void this.logScheduled(), this.intervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.writing;
  }

  /** A signed checkpoint of the tenant's chain head now, also written to the log and kept. */
  async checkpoint(tenantId: string): Promise<AuditCheckpoint> {
    const head = await this.events.chainHead(tenantId);
    return this.write(tenantId, head ?? { seq: 0, hash: GENESIS_HASH, digest: GENESIS_HASH });
  }

  /** The public keys that verify checkpoints, as a JWKS. */
  publicKeys(): { keys: SigningJwk[] } {
    return this.signingKeys.jwks();
  }

  /** The line that ends an export: a checkpoint signed (and kept) over its last event. */
  async exportEnd(tenantId: string, last: { seq: number; digest: string }): Promise<string> {
    return checkpointLine(await this.signAndKeep(tenantId, last.seq, last.digest, new Date()));
  }

  /** Verifies the tenant's chain, which must still pass through `checkpoint` (one this gateway signed). */
  verifyAgainst(tenantId: string, checkpoint: KeyedCheckpoint): Promise<ChainVerification> {
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

  /**
   * Verifies the tenant's chain from its newest kept checkpoint on (AuditService.verify's `since`),
   * once its signature checks out with AUDIT_SIGNING_KEYS: what was appended since, whatever the
   * log's size. From the chain's start when the tenant has none, or none that verifies (signed with
   * a key no longer configured, or not by this gateway at all).
   */
  async verifySinceNewest(tenantId: string): Promise<ChainVerification> {
    const kept = await this.kept.newest(tenantId);
    const point = kept && signedPoint(await this.signingKeys.verified(kept.jws), tenantId);
    return this.audit.verify(tenantId, null, point ?? null);
  }

  /** Signs, keeps and logs a checkpoint for every tenant whose chain head moved past its newest one. */
  async logMovedHeads(): Promise<void> {
    for (const head of await this.kept.movedHeads()) await this.write(head.tenantId, head);
  }

  private async write(tenantId: string, head: ChainHead): Promise<AuditCheckpoint> {
    const at = new Date();
    const keyed = signCheckpoint(this.chainKeys, { tenantId, seq: head.seq, hash: head.hash }, at);
    const jws = head.digest === null ? null : await this.signAndKeep(tenantId, head.seq, head.digest, at);
    const checkpoint = { ...keyed, digest: head.digest, jws };
    this.logger.log({ checkpoint }, 'audit chain checkpoint');
    return checkpoint;
  }

  private async signAndKeep(tenantId: string, seq: number, digest: string, at: Date): Promise<string> {
    const jws = await this.signingKeys.sign({ tenantId, seq, digest, at: at.toISOString() });
    await this.kept.store({ tenantId, seq, digest, at, kid: this.signingKeys.activeKid, jws });
    return jws;
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

/** The point a checkpoint's verified payload vouches for, if it is the tenant's. */
function signedPoint(payload: unknown, tenantId: string): SignedPoint | null {
  const { tenantId: signedFor, seq, digest } = (payload ?? {}) as Record<string, unknown>;
  return signedFor === tenantId && Number.isInteger(seq) && typeof digest === 'string'
    ? { seq: seq as number, digest }
    : null;
}
