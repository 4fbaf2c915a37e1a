import { Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Actor } from '../auth/principal';
import { ProblemException } from '../common/problem/problem';
import { PrismaService } from '../database/prisma.service';
import { AuditService, type AuditChange, type AuditEntry } from './audit.service';

export interface UpstreamActionOptions<T> {
  actor: Actor;
  entry: Omit<AuditEntry, 'outcome' | 'httpStatus'>;
  /** Writes that must commit with the `pending` event (e.g. the history record), as AuditService.append takes them. */
  before?: () => AuditChange;
  call: () => Promise<{ status: number; value: T; details?: Record<string, unknown> }>;
  /** The same for the outcome event; `value` is the call's, on success. */
  after?: (outcome: UpstreamActionOutcome<T>) => AuditChange | undefined;
}

/** How the call ended; `error` is null on a failure that was not a problem (an unexpected error). */
export type UpstreamActionOutcome<T> =
  | { succeeded: true; status: number; value: T }
  | { succeeded: false; status: number; error: ProblemException | null };

// The outcome is written up to this many times, waiting this long before each retry.
const OUTCOME_RETRY_DELAYS_MS = [250, 1_000];

/**
 * For an action whose effect happens upstream: a `pending` event commits before the call (if it
 * cannot, the call is never made), and the outcome is appended after it, so a crash in between
 * leaves a visible trace instead of silence. Each step is one statement with its extra write: no
 * interactive transaction, which costs more CPU than the statements it would hold.
 *
 * Once the call is made, its answer is the truth the caller gets: an outcome that still cannot be
 * written after its retries is logged as an error (the audit log keeps the `pending` event), and
 * the caller gets the upstream's answer all the same, never an error that suggests nothing happened.
 */
@Injectable()
export class AuditedUpstreamWrites {
  private readonly logger = new Logger(AuditedUpstreamWrites.name);

  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditService,
  ) {}

  async run<T>(options: UpstreamActionOptions<T>): Promise<{ status: number; value: T }> {
    const { actor, entry } = options;
    await this.audit.append(this.prisma, actor, { ...entry, outcome: 'pending' }, options.before?.());
    let result: { status: number; value: T; details?: Record<string, unknown> };
    try {
      result = await options.call();
    } catch (error) {
      const problem = error instanceof ProblemException ? error : null;
      const status = problem?.problem.status ?? 500;
      await this.appendOutcome(
        actor,
        {
          ...entry,
          outcome: 'failed',
          httpStatus: status,
          details: {
            ...entry.details,
            problem: problem?.problem.type ?? 'internal',
            upstreamStatus: problem?.problem.upstream?.status,
            // What the caller was told, the upstream's own reason included: built from its answer once scrubbed.
            detail: problem?.problem.detail,
          },
        },
        options.after?.({ succeeded: false, status, error: problem }),
      );
      throw error;
    }
    await this.appendOutcome(
      actor,
      {
        ...entry,
        outcome: 'succeeded',
        httpStatus: result.status,
        details: { ...entry.details, ...result.details },
      },
      options.after?.({ succeeded: true, status: result.status, value: result.value }),
    );
    return { status: result.status, value: result.value };
  }

  /**
   * Appends the outcome, retrying with a growing delay; logs when every attempt failed. A retry
   * after an attempt that committed but could not say so records the outcome twice, which is the
   * lesser harm: the writes that go with it set a state, so a second run changes nothing.
   */
  private async appendOutcome(
    actor: Actor,
    outcome: AuditEntry,
    change: AuditChange | undefined,
  ): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.audit.append(this.prisma, actor, outcome, change);
        return;
      } catch (error) {
        if (attempt === OUTCOME_RETRY_DELAYS_MS.length) {
          this.logger.error(
            {
              err: error,
              tenantId: outcome.tenantId,
              action: outcome.action,
              target: outcome.target,
              requestId: actor.requestId,
              outcome: outcome.outcome,
              httpStatus: outcome.httpStatus,
            },
            'audit outcome not recorded: the upstream call was made, its outcome is missing from the audit log',
          );
          return;
        }
        await sleep(OUTCOME_RETRY_DELAYS_MS[attempt]);
      }
    }
  }
}
