import type { Actor } from '../auth/principal';
import { ProblemException } from '../common/problem/problem';
import type { PrismaService, PrismaTx } from '../database/prisma.service';
import type { AuditEntry, AuditService } from './audit.service';

export interface UpstreamActionOptions<T> {
  prisma: PrismaService;
  audit: AuditService;
  actor: Actor;
  entry: Omit<AuditEntry, 'outcome' | 'httpStatus'>;
  /** Extra writes that must commit with the `pending` event (e.g. the history record). */
  before?: (tx: PrismaTx) => Promise<void>;
  call: () => Promise<{ status: number; value: T; details?: Record<string, unknown> }>;
  /** Extra writes that must commit with the outcome event; `value` is the call's, on success. */
  after?: (tx: PrismaTx, outcome: UpstreamActionOutcome<T>) => Promise<void>;
}

/** How the call ended; `error` is null on a failure that was not a problem (an unexpected error). */
export type UpstreamActionOutcome<T> =
  | { succeeded: true; status: number; value: T }
  | { succeeded: false; status: number; error: ProblemException | null };

/**
 * For an action whose effect happens upstream: a `pending` event commits before the call (if it
 * cannot, the call is never made), and the outcome is appended after it, so a crash in between
 * leaves a visible trace instead of silence.
 */
export async function auditedUpstreamAction<T>(
  options: UpstreamActionOptions<T>,
): Promise<{ status: number; value: T }> {
  const { prisma, audit, actor, entry } = options;
  await prisma.$transaction(async (tx) => {
    await options.before?.(tx);
    await audit.append(tx, actor, { ...entry, outcome: 'pending' });
  });
  let result: { status: number; value: T; details?: Record<string, unknown> };
  try {
    result = await options.call();
  } catch (error) {
    const problem = error instanceof ProblemException ? error : null;
    const status = problem?.problem.status ?? 500;
    await prisma.$transaction(async (tx) => {
      await options.after?.(tx, { succeeded: false, status, error: problem });
      await audit.append(tx, actor, {
        ...entry,
        outcome: 'failed',
        httpStatus: status,
        details: {
          ...entry.details,
          problem: problem?.problem.type ?? 'internal',
          upstreamStatus: problem?.problem.upstream?.status,
        },
      });
    });
    throw error;
  }
  await prisma.$transaction(async (tx) => {
    await options.after?.(tx, { succeeded: true, status: result.status, value: result.value });
    await audit.append(tx, actor, {
      ...entry,
      outcome: 'succeeded',
      httpStatus: result.status,
      details: { ...entry.details, ...result.details },
    });
  });
  return { status: result.status, value: result.value };
}
