import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { AuditService } from '../../audit/audit.service';
import type { Actor } from '../../auth/principal';
import { sha256Hex } from '../../common/canonical-json';
import { IDEMPOTENCY_WINDOW_MS, type StoredResponse } from '../../common/idempotency';
import { createdAtKeyset, createdAtPosition, Page, toPage } from '../../common/pagination';
import { problemFor } from '../../common/problem/problem';
import type { AppConfig } from '../../config/app-config';
import { PrismaService } from '../../database/prisma.service';
import { Prisma, type PipeSpecRecord } from '../../generated/prisma/client';
import { redactedCanonicalJson, redactSecrets } from '../../redaction/redact';
import type { PipesEnvelope } from '../../upstream/pipes-api.client';
import type { UpstreamResponse } from '../../upstream/upstream-http';
import { PipeSpecHistoryQueryDto, PipeSpecRecordView } from './pipe-spec-history.dto';
import { viewOf } from '../../common/views';

export interface NewPipeSpec {
  tenantId: string;
  organizationId: string;
  serviceId: string;
  idempotencyKey: string | null;
  /** The keyed fingerprint of the request, with an idempotency key. */
  fingerprint: string | null;
  /** The history entry this spec is submitted again from. */
  resubmittedFrom: string | null;
}

export interface RedactedSpec {
  /** The canonical JSON of the spec with its secrets redacted, which is what is stored. */
  text: string;
  specHash: string;
}

// A pending record older than the upstream timeout plus this belongs to a call that can no longer
// finish: the margin covers everything else the request waits for (database, rate limits, retries).
const RECONCILE_GRACE_MS = 60_000;
// How often such records are looked for, besides at start-up.
const RECONCILE_EVERY_MS = 60_000;

/** The history of submitted create specs: secrets redacted before anything is stored. */
@Injectable()
export class PipeSpecHistoryService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(PipeSpecHistoryService.name);
  private timer: NodeJS.Timeout | undefined;
  private reconciling: Promise<void> | null = null;

  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditService,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  /** `spec` (parsed JSON) with its secrets redacted, as canonical JSON, and the hash of that. */
  redact(spec: unknown): RedactedSpec {
    const text = redactedCanonicalJson(spec);
    return { text, specHash: sha256Hex(text) };
  }

  /** The earlier record for this idempotency key within 24 h, or null. Expired keys are released. */
  async findIdempotent(tenantId: string, idempotencyKey: string): Promise<PipeSpecRecord | null> {
    const record = await this.prisma.pipeSpecRecord.findUnique({
      where: { tenantId_idempotencyKey: { tenantId, idempotencyKey } },
    });
    if (record && record.createdAt.getTime() < Date.now() - IDEMPOTENCY_WINDOW_MS) {
      await this.prisma.pipeSpecRecord.update({ where: { id: record.id }, data: { idempotencyKey: null } });
      return null;
    }
    return record;
  }

  // The writes below go with the audit event of the same step, in its statement
  // (AuditService.append): each reads FROM appended, so it happens exactly when the event does.

  /** The record of a create about to be sent: outcome `pending`, the redacted spec. */
  pendingRecord(id: string, input: NewPipeSpec, redacted: RedactedSpec, actor: Actor): Prisma.Sql {
    return Prisma.sql`
      INSERT INTO pipe_spec_records (id, tenant_id, key_id, actor, on_behalf_of, organization_id, service_id,
                                     spec, spec_hash, idempotency_key, fingerprint, resubmitted_from, request_id)
      SELECT ${id}::uuid, ${input.tenantId}::uuid, ${actor.keyId}::uuid, ${actor.actor}, ${actor.onBehalfOf},
             ${input.organizationId}::uuid, ${input.serviceId}::uuid, ${redacted.text}::jsonb,
             ${redacted.specHash}, ${input.idempotencyKey}, ${input.fingerprint}, ${input.resubmittedFrom}::uuid,
             ${actor.requestId}
      FROM appended`;
  }

  /**
   * The record of a create the upstream accepted: `json` is its answer's body as JSON text. An
   * UpstreamResponse's body comes redacted by UpstreamHttp (secret fields and patterns, and every
   * secret the call sent), so it is stored as it is.
   */
  succeededRecord(
    id: string,
    outcome: { pipeId: string | null; answer: UpstreamResponse<PipesEnvelope>; json: string },
  ): Prisma.Sql {
    const { status, body } = outcome.answer;
    // JSON.stringify({ status, body } satisfies StoredResponse), without writing the body again.
    const response = `{"status":${status},"body":${outcome.json}}`;
    return Prisma.sql`
      UPDATE pipe_spec_records
      SET outcome = 'succeeded', pipe_id = ${outcome.pipeId}, upstream_request_id = ${body.requestId ?? null},
          upstream_status = ${status}::int, response = ${response}::jsonb,
          completed_at = ${new Date()}
      FROM appended WHERE pipe_spec_records.id = ${id}::uuid`;
  }

  failedRecord(id: string, failure: { upstreamStatus: number | null; response: StoredResponse }): Prisma.Sql {
    const response = redactSecrets(failure.response);
    return Prisma.sql`
      UPDATE pipe_spec_records
      SET outcome = 'failed', upstream_status = ${failure.upstreamStatus}::int,
          error = ${JSON.stringify(response.body)}::jsonb,
          response = ${JSON.stringify(response)}::jsonb, completed_at = ${new Date()}
      FROM appended WHERE pipe_spec_records.id = ${id}::uuid`;
  }

  /** Marks the create specs of a pipe just deleted upstream, with the audit event of the delete. */
  deletedRecords(tenantId: string, pipeId: string): Prisma.Sql {
    return Prisma.sql`
      UPDATE pipe_spec_records SET deleted_at = ${new Date()}
      FROM appended WHERE pipe_spec_records.tenant_id = ${tenantId}::uuid AND pipe_spec_records.pipe_id = ${pipeId}`;
  }

  async list(tenantId: string, query: PipeSpecHistoryQueryDto): Promise<Page<PipeSpecRecordView>> {
    const limit = query.limit ?? 50;
    const keyset = createdAtKeyset(query.cursor, 'desc');
    const createdAt: Prisma.DateTimeFilter = {};
    if (query.from) createdAt.gte = new Date(query.from);
    if (query.to) createdAt.lt = new Date(query.to);
    const rows = await this.prisma.pipeSpecRecord.findMany({
      where: {
        tenantId,
        ...(query.from || query.to ? { createdAt } : {}),
        ...(query.organizationId ? { organizationId: query.organizationId } : {}),
        ...(query.serviceId ? { serviceId: query.serviceId } : {}),
        ...(query.outcome ? { outcome: query.outcome } : {}),
        ...(query.actor ? { OR: [{ actor: query.actor }, { onBehalfOf: query.actor }] } : {}),
        AND: [keyset.where],
      },
      orderBy: keyset.orderBy,
      take: limit + 1,
    });
    return toPage(rows, limit, createdAtPosition, toView);
  }

  async get(tenantId: string, id: string): Promise<PipeSpecRecordView> {
    return toView(await this.record(tenantId, id));
  }

  async record(tenantId: string, id: string): Promise<PipeSpecRecord> {
    const row = await this.prisma.pipeSpecRecord.findFirst({ where: { id, tenantId } });
    if (!row) throw problemFor(404, `History entry ${id} does not exist.`);
    return row;
  }

  /**
   * The record as a replay of its Idempotency-Key must see it: still `pending` past the deadline of
   * the request that wrote it means that request was interrupted, and its outcome is unknown.
   */
  asReplayed(record: PipeSpecRecord): PipeSpecRecord {
    return record.outcome === 'pending' && record.createdAt < this.interruptedBefore()
      ? { ...record, outcome: 'unknown' }
      : record;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.markInterrupted();
    this.timer = setInterval(() => void this.reconcileScheduled(), RECONCILE_EVERY_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.reconciling;
  }

  /**
   * Records left `pending` by a request that was interrupted between the upstream call and the
   * history update (a crash, an outcome that could not be written) are marked `unknown` (the pipe
   * may or may not exist upstream), visibly, never dropped. At start-up and every minute; of
   * replicas doing it at once, one marks each record.
   */
  async markInterrupted(): Promise<void> {
    const stale = await this.prisma.pipeSpecRecord.findMany({
      where: { outcome: 'pending', createdAt: { lt: this.interruptedBefore() } },
      select: { id: true, tenantId: true, organizationId: true, serviceId: true },
      take: 1_000,
    });
    let marked = 0;
    for (const record of stale) {
      await this.prisma.$transaction(async (tx) => {
        const { count } = await tx.pipeSpecRecord.updateMany({
          where: { id: record.id, outcome: 'pending' },
          data: { outcome: 'unknown', completedAt: new Date() },
        });
        if (count === 0) return;
        marked += 1;
        await this.audit.append(
          tx,
          { actor: 'gateway', onBehalfOf: null, keyId: null, requestId: randomUUID() },
          {
            tenantId: record.tenantId,
            action: 'pipe.create',
            target: `pipe-spec:${record.id}`,
            outcome: 'failed',
            details: {
              reconciled: 'unknown',
              organizationId: record.organizationId,
              serviceId: record.serviceId,
            },
          },
        );
      });
    }
    if (marked > 0) this.logger.warn(`marked ${marked} interrupted pipe create(s) as unknown`);
  }

  private interruptedBefore(): Date {
    const timeoutMs = this.config.get('upstream', { infer: true }).timeoutMs;
    return new Date(Date.now() - timeoutMs - RECONCILE_GRACE_MS);
  }

  private async reconcileScheduled(): Promise<void> {
    if (this.reconciling) return;
    this.reconciling = this.markInterrupted().catch((error: unknown) =>
      this.logger.warn({ err: error }, 'could not mark interrupted pipe creates; retrying in a minute'),
    );
    await this.reconciling;
    this.reconciling = null;
  }
}

const PIPE_SPEC_RECORD_VIEW = [
  'id',
  'actor',
  'onBehalfOf',
  'keyId',
  'organizationId',
  'serviceId',
  'spec',
  'specHash',
  'outcome',
  'pipeId',
  'upstreamRequestId',
  'upstreamStatus',
  'error',
  'requestId',
  'createdAt',
  'completedAt',
  'deletedAt',
  'resubmittedFrom',
] as const;

function toView(row: PipeSpecRecord): PipeSpecRecordView {
  return viewOf(row, PIPE_SPEC_RECORD_VIEW);
}
