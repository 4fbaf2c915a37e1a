import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AuditAction } from '../audit/audit-actions';
import type { TableWrite } from '../audit/audit-events.repository';
import type { AppConfig } from '../config/app-config';
import { CryptoService } from '../crypto/crypto.service';
import { redactSecrets } from '../redaction/redact';
import { canonicalJson } from '../common/canonical-json';
import { isUniqueViolation } from '../database/database-errors';
import { UNIQUE } from '../database/unique-constraints';
import {
  idempotentRequestInProgress,
  IDEMPOTENCY_WINDOW_MS,
  pendingLimitMs,
  replayOf,
  type EarlierRequest,
  type ReplayedAnswer,
  type StoredResponse,
} from './idempotency';
import { IdempotencyKeyOf, IdempotentRequestsRepository } from './idempotent-requests.repository';

/** What a create sent with an Idempotency-Key is, for its key. */
export interface KeyedRequest extends IdempotencyKeyOf {
  /** The request as it decides sameness (canonical JSON of where it goes and its whole body). */
  request: string;
  /** `pipe`, `dashboard`: named in the answer to a replay of an interrupted create. */
  resource: string;
}

/** A create as IdempotencyStore.create takes it. */
export interface CreateRequest {
  tenantId: string;
  /** The create's audit action: a key is the caller's per tenant and per operation. */
  operation: AuditAction;
  /** The caller's Idempotency-Key; null when it sent none. */
  key: string | null;
  /** Where it goes and its whole body, secrets included: a new secret under the same key is another request. */
  request: Record<string, unknown>;
  /** `pipe`, `dashboard`: named in the answer to a replay of an interrupted create. */
  resource: string;
}

/**
 * The writes that record a create under its key, to run with its audit events (none without a
 * key): the key taken with the pending event, the answer with the outcome.
 */
export interface CreateKeyWrites {
  /** `recordId`: the create's history entry, where it has one. */
  pending(recordId?: string): TableWrite[];
  /** The answer the caller got, redacted like every response. */
  completed(succeeded: boolean, response: StoredResponse): TableWrite[];
  /** The same, for a successful answer already redacted and written as JSON (`bodyJson`). */
  succeededAsWritten(status: number, bodyJson: string): TableWrite[];
}

const NO_KEY: CreateKeyWrites = { pending: () => [], completed: () => [], succeededAsWritten: () => [] };

/**
 * Every create sent with an Idempotency-Key, pipes and dashboards alike: the first answer is
 * replayed for the same request within 24 hours; what to answer otherwise is replayOf's.
 */
@Injectable()
export class IdempotencyStore {
  private readonly pendingLimitMs: number;

  constructor(
    private readonly requests: IdempotentRequestsRepository,
    private readonly crypto: CryptoService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.pendingLimitMs = pendingLimitMs(config.get('upstream', { infer: true }).timeoutMs);
  }

  /**
   * Every create that takes an Idempotency-Key: `run`'s answer, which writes `writes` with its
   * audit events, unless the key was taken. The key is not looked up first: a create's pending
   * write takes it or fails on it, whole, before anything else is done, so `run` must write the
   * pending rows before any effect. Only then is the key read: the earlier answer is replayed, a
   * request still in progress is answered 409, and a key older than 24 hours is released and the
   * create made again.
   */
  async create<T>(
    create: CreateRequest,
    run: (writes: CreateKeyWrites) => Promise<T>,
  ): Promise<T | ReplayedAnswer> {
    if (create.key === null) return run(NO_KEY);
    const key: IdempotencyKeyOf = { tenantId: create.tenantId, operation: create.operation, key: create.key };
    const keyed: KeyedRequest = { ...key, request: canonicalJson(create.request), resource: create.resource };
    const fingerprint = this.crypto.fingerprint(keyed.request);
    const writes: CreateKeyWrites = {
      pending: (recordId) => [this.requests.pending(key, fingerprint, recordId ?? null)],
      completed: (succeeded, response) => [this.completed(key, succeeded, response)],
      succeededAsWritten: (status, bodyJson) => [this.succeededAsWritten(key, status, bodyJson)],
    };
    for (let attempt = 0; ; attempt++) {
      try {
        return await run(writes);
      } catch (error) {
        if (!isUniqueViolation(error, UNIQUE.idempotentRequest)) throw error;
      }
      const replay = await this.earlierAnswer(keyed);
      if (replay !== null) return replay;
      // Released meanwhile (expired, or by a request that found it so): taken again, once.
      if (attempt === 1) throw idempotentRequestInProgress();
    }
  }

  /**
   * What the earlier request under this key answers now: its answer replayed, or a problem thrown
   * (another request, in progress, unknown outcome). Null when the key is free again: it was never
   * used within 24 hours, and an expired one is released.
   */
  private async earlierAnswer(keyed: KeyedRequest): Promise<ReplayedAnswer | null> {
    const earlier = await this.requests.find(keyed);
    if (earlier === null) return null;
    if (earlier.createdAt.getTime() < Date.now() - IDEMPOTENCY_WINDOW_MS) {
      await this.requests.release(keyed);
      return null;
    }
    return replayOf(
      {
        // Over the whole request, secrets included: a new secret under the same key is another request.
        sameRequest: this.crypto.fingerprintMatches(keyed.request, earlier.fingerprint),
        outcome: earlier.outcome as EarlierRequest['outcome'],
        response: earlier.response as StoredResponse | null,
        createdAt: earlier.createdAt,
      },
      this.pendingLimitMs,
      {
        resource: keyed.resource,
        record: earlier.recordId === null ? undefined : `history entry ${earlier.recordId}`,
      },
    );
  }

  // The answer goes with the create's outcome event.

  /** The answer the caller got, redacted like every response. */
  private completed(key: IdempotencyKeyOf, succeeded: boolean, response: StoredResponse): TableWrite {
    return this.requests.completed(key, succeeded, JSON.stringify(redactSecrets(response)));
  }

  /** The same, for a successful answer already redacted and written as JSON (`bodyJson`). */
  private succeededAsWritten(key: IdempotencyKeyOf, status: number, bodyJson: string): TableWrite {
    // JSON.stringify({ status, body } satisfies StoredResponse), without writing the body again.
    return this.requests.completed(key, true, `{"status":${status},"body":${bodyJson}}`);
  }
}
