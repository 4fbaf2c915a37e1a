import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { TableWrite } from '../audit/audit-events.repository';
import type { AppConfig } from '../config/app-config';
import { CryptoService } from '../crypto/crypto.service';
import { redactSecrets } from '../redaction/redact';
import {
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

/** A keyed create's first step: the earlier answer to replay, or the fingerprint to record it by. */
export type IdempotencyCheck = { replay: ReplayedAnswer } | { replay: null; fingerprint: string };

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

  /** The earlier answer under this key within 24 h, if any; an expired key is released. */
  async check(keyed: KeyedRequest): Promise<IdempotencyCheck> {
    const earlier = await this.requests.find(keyed);
    if (earlier !== null && earlier.createdAt.getTime() < Date.now() - IDEMPOTENCY_WINDOW_MS) {
      await this.requests.release(keyed);
    } else if (earlier !== null) {
      const replay = replayOf(
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
      return { replay };
    }
    return { replay: null, fingerprint: this.crypto.fingerprint(keyed.request) };
  }

  // The writes below go with the create's audit events: pending with the pending event, the
  // answer with the outcome.

  /** `recordId`: the create's history entry, where it has one. */
  pending(key: IdempotencyKeyOf, fingerprint: string, recordId: string | null = null): TableWrite {
    return this.requests.pending(key, fingerprint, recordId);
  }

  /** The answer the caller got, redacted like every response. */
  completed(key: IdempotencyKeyOf, succeeded: boolean, response: StoredResponse): TableWrite {
    return this.requests.completed(key, succeeded, JSON.stringify(redactSecrets(response)));
  }

  /** The same, for a successful answer already redacted and written as JSON (`bodyJson`). */
  succeededAsWritten(key: IdempotencyKeyOf, status: number, bodyJson: string): TableWrite {
    // JSON.stringify({ status, body } satisfies StoredResponse), without writing the body again.
    return this.requests.completed(key, true, `{"status":${status},"body":${bodyJson}}`);
  }
}
