import { Injectable } from '@nestjs/common';
import type { Actor } from '../auth/principal';
import { ProblemException } from '../common/problem/problem';
import { WriteTransactions } from '../database/write-transactions';
import { DisplayNames } from '../display-names/display-names';
import { AuditEventsRepository } from './audit-events.repository';
import { AuditReviewsRepository, type StoredReview } from './audit-reviews.repository';
import { AuditService } from './audit.service';
import type { AuditReviewStatusView, AuditReviewView, RecordAuditReviewDto } from './dto/audit-review.dto';

/** What an `audit.review` event's details hold. */
interface ReviewDetails {
  fromSeq: number;
  throughSeq: number;
  throughDigest: string | null;
  note?: string;
}

/**
 * Sign-offs of the audit log: each is itself an event of the chain, naming the range of events it
 * covers, so a review is on the record like everything it reviewed, and ranges never overlap.
 */
@Injectable()
export class AuditReviewsService {
  constructor(
    private readonly audit: AuditService,
    private readonly transactions: WriteTransactions,
    private readonly events: AuditEventsRepository,
    private readonly reviews: AuditReviewsRepository,
    private readonly names: DisplayNames,
  ) {}

  /**
   * Appends the review of the events after the previous review through `throughSeq`. The chain row
   * is locked first: no event or other review can come in between the checks and the append.
   */
  async record(tenantId: string, input: RecordAuditReviewDto, actor: Actor): Promise<AuditReviewView> {
    const { throughSeq } = input;
    const review = await this.transactions.run(tenantId, async (tx) => {
      const head = await this.events.lockHead(tx, tenantId);
      const previous = await this.reviews.latest(tx, tenantId);
      const fromSeq = previous ? detailsOf(previous).throughSeq + 1 : 1;
      if (throughSeq > head.seq) throw beyondHead(throughSeq, head.seq);
      if (throughSeq < fromSeq) throw alreadyReviewed(throughSeq, previous!, head.seq);
      const details: ReviewDetails = {
        fromSeq,
        throughSeq,
        throughDigest: await this.reviews.digestAt(tx, tenantId, throughSeq),
        ...(input.note === undefined ? {} : { note: input.note }),
      };
      await this.audit.append(tx, actor, {
        tenantId,
        action: 'audit.review',
        target: `tenant:${tenantId}`,
        outcome: 'succeeded',
        httpStatus: 201,
        details: { ...details },
      });
      // With the chain row still locked, the newest review is the one just written.
      return (await this.reviews.latest(tx, tenantId))!;
    });
    return this.view(tenantId, review);
  }

  async status(tenantId: string): Promise<AuditReviewStatusView> {
    const state = await this.reviews.state(tenantId);
    if (state === null) return { latest: null, headSeq: 0, unreviewedEvents: 0 };
    const reviewedThrough = state.latest ? detailsOf(state.latest).throughSeq : 0;
    const unreviewed = state.lastSeq - Math.max(reviewedThrough, state.startSeq - 1) - state.reviewsSince;
    return {
      latest: state.latest && (await this.view(tenantId, state.latest)),
      headSeq: state.lastSeq,
      unreviewedEvents: Math.max(0, unreviewed),
    };
  }

  private async view(tenantId: string, review: StoredReview): Promise<AuditReviewView> {
    const details = detailsOf(review);
    const names = await this.names.of(tenantId, [review.actor]);
    return {
      seq: review.seq,
      at: review.at.toISOString(),
      fromSeq: details.fromSeq,
      throughSeq: details.throughSeq,
      throughDigest: details.throughDigest ?? null,
      reviewer: { actor: review.actor, name: names[review.actor] ?? null, onBehalfOf: review.onBehalfOf },
      note: details.note ?? null,
    };
  }
}

// Only this service writes audit.review events, always with these details.
function detailsOf(review: StoredReview): ReviewDetails {
  return review.details as ReviewDetails;
}

function beyondHead(throughSeq: number, headSeq: number): ProblemException {
  return new ProblemException({
    status: 422,
    type: 'review-beyond-head',
    title: 'Review beyond the newest event',
    detail:
      headSeq === 0
        ? 'The audit log has no event yet: there is nothing to review.'
        : `throughSeq ${throughSeq} is beyond the newest event, seq ${headSeq}: a review covers events already written.`,
  });
}

export function alreadyReviewed(
  throughSeq: number,
  previous: StoredReview,
  headSeq: number,
): ProblemException {
  const reviewed = detailsOf(previous).throughSeq;
  // A person by address alone: `user:name@host` reads as a password in a URL to the problem's scrub.
  const reviewer = previous.actor.replace(/^user:/, 'the person ');
  const next =
    reviewed < headSeq
      ? `review through a seq from ${reviewed + 1} to ${headSeq}`
      : 'no event is waiting for review';
  return new ProblemException({
    status: 409,
    type: 'range-already-reviewed',
    title: 'Events already reviewed',
    detail:
      `The events through seq ${reviewed} were already reviewed (event ${previous.seq}, by ${reviewer} ` +
      `at ${previous.at.toISOString()}), and throughSeq ${throughSeq} is not after them: ${next}.`,
  });
}
