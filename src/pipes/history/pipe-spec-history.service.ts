import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { AuditService } from '../../audit/audit.service';
import { WriteTransactions } from '../../database/write-transactions';
import type { Actor } from '../../auth/principal';
import { sha256Hex } from '../../common/canonical-json';
import type { StoredResponse } from '../../idempotency/idempotency';
import { createdAtPosition, Page, toPage } from '../../common/pagination';
import { problemFor } from '../../common/problem/problem';
import type { AppConfig } from '../../config/app-config';
import type { PipeSpecRecord } from '../../generated/prisma/client';
import type { TableWrite } from '../../audit/audit-events.repository';
import { PipeSpecRecordsRepository } from './pipe-spec-records.repository';
import { redactedCanonicalJson, redactSecrets } from '../../redaction/redact';
import type { PipesEnvelope } from '../../upstream/pipes-api.client';
import type { UpstreamResponse } from '../../upstream/upstream-http';
import { PipeSpecHistoryQueryDto, PipeSpecRecordView } from './pipe-spec-history.dto';
import { viewOf } from '../../common/views';

export interface NewPipeSpec {
  tenantId: string;
  organizationId: string;
  serviceId: string;
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
    private readonly records: PipeSpecRecordsRepository,
    private readonly audit: AuditService,
    private readonly writes: WriteTransactions,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  /** `spec` (parsed JSON) with its secrets redacted, as canonical JSON, and the hash of that. */
  redact(spec: unknown): RedactedSpec {
    const text = redactedCanonicalJson(spec);
    return { text, specHash: sha256Hex(text) };
  }

  // The writes below go with the audit event of the same step (AuditService.append), so they
  // happen exactly when the event does.

  /** The record of a create about to be sent: outcome `pending`, the redacted spec. */
  pendingRecord(id: string, input: NewPipeSpec, redacted: RedactedSpec, actor: Actor): TableWrite {
    return this.records.pending({ id, ...input, ...redacted }, actor);
  }

  /** The record of a create the upstream accepted. */
  succeededRecord(
    id: string,
    outcome: { pipeId: string | null; answer: UpstreamResponse<PipesEnvelope> },
  ): TableWrite {
    const { status, body } = outcome.answer;
    return this.records.succeeded(id, {
      pipeId: outcome.pipeId,
      upstreamRequestId: body.requestId ?? null,
      upstreamStatus: status,
    });
  }

  failedRecord(id: string, failure: { upstreamStatus: number | null; response: StoredResponse }): TableWrite {
    return this.records.failed(id, {
      upstreamStatus: failure.upstreamStatus,
      error: JSON.stringify(redactSecrets(failure.response.body)),
    });
  }

  /** Marks the create specs of a pipe just deleted upstream, with the audit event of the delete. */
  deletedRecords(tenantId: string, pipeId: string): TableWrite {
    return this.records.pipeDeleted(tenantId, pipeId);
  }

  async list(tenantId: string, query: PipeSpecHistoryQueryDto): Promise<Page<PipeSpecRecordView>> {
    const limit = query.limit ?? 50;
    const rows = await this.records.page(
      {
        tenantId,
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
        organizationId: query.organizationId,
        serviceId: query.serviceId,
        outcome: query.outcome,
        actor: query.actor,
      },
      query.cursor,
      limit,
    );
    return toPage(rows, limit, createdAtPosition, toView);
  }

  async get(tenantId: string, id: string): Promise<PipeSpecRecordView> {
    return toView(await this.record(tenantId, id));
  }

  async record(tenantId: string, id: string): Promise<PipeSpecRecord> {
    const row = await this.records.find(tenantId, id);
    if (!row) throw problemFor(404, `History entry ${id} does not exist.`);
    return row;
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
    const stale = await this.records.stalePending(this.interruptedBefore(), 1_000);
    let marked = 0;
    for (const record of stale) {
      const markedNow = await this.writes.run(record.tenantId, async (tx) => {
        if (!(await this.records.markUnknown(tx, record.id))) return false;
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
        return true;
      });
      if (markedNow) marked += 1;
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
