import type { Actor } from '../auth/principal';
import { ProblemException } from '../common/problem/problem';
import type { PrismaService } from '../database/prisma.service';
import type { AuditChange, AuditEntry, AuditService } from './audit.service';

export interface UpstreamActionOptions<T> {
  prisma: PrismaService;
  audit: AuditService;
  actor: Actor;
  entry: Omit<AuditEntry, 'outcome' | 'httpStatus'>;
  /**
   * Writes that must commit with the `pending` event (e.g. the history record), as AuditService.append
   * takes them: data-modifying statements that read `FROM appended`.
   */
  before?: () => AuditChange;
  call: () => Promise<{ status: number; value: T; details?: Record<string, unknown> }>;
  /** The same for the outcome event; `value` is the call's, on success. */
  after?: (outcome: UpstreamActionOutcome<T>) => AuditChange | undefined;
}

/** How the call ended; `error` is null on a failure that was not a problem (an unexpected error). */
export type UpstreamActionOutcome<T> =
  | { succeeded: true; status: number; value: T }
  | { succeeded: false; status: number; error: ProblemException | null };

/**
 * For an action whose effect happens upstream: a `pending` event commits before the call (if it
 * cannot, the call is never made), and the outcome is appended after it, so a crash in between
 * leaves a visible trace instead of silence. Each step is one statement with its extra write: no
 * interactive transaction, which costs more CPU than the statements it would hold.
 */
export async function auditedUpstreamAction<T>(
  options: UpstreamActionOptions<T>,
): Promise<{ status: number; value: T }> {
  const { prisma, audit, actor, entry } = options;
  await audit.append(prisma, actor, { ...entry, outcome: 'pending' }, options.before?.());
  let result: { status: number; value: T; details?: Record<string, unknown> };
  try {
    result = await options.call();
  } catch (error) {
    const problem = error instanceof ProblemException ? error : null;
    const status = problem?.problem.status ?? 500;
    await audit.append(
      prisma,
      actor,
      {
        ...entry,
        outcome: 'failed',
        httpStatus: status,
        details: {
          ...entry.details,
          problem: problem?.problem.type ?? 'internal',
          upstreamStatus: problem?.problem.upstream?.status,
        },
      },
      options.after?.({ succeeded: false, status, error: problem }),
    );
    throw error;
  }
  await audit.append(
    prisma,
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
