import { useState, type FormEvent } from 'react';
import type { components } from '../../../../clients/typescript/src';
import { Time } from '../../components/common';
import { RefusalNote } from '../../components/refused-fields';
import { useConsole } from '../../console-context';
import { answer } from '../../gateway';
import { formText } from '../../form';

export type ReviewStatus = components['schemas']['AuditReviewStatusView'];
type Review = components['schemas']['AuditReviewView'];

/** Who signed a review off, as a person knows them. */
export function reviewerOf(review: Review): string {
  return review.reviewer.onBehalfOf ?? review.reviewer.name ?? review.reviewer.actor;
}

/** Where review of the log stands, at a glance: through which event, by whom, when, and what is new since. */
export function ReviewStatusLine({ status }: { status: ReviewStatus }) {
  const { latest, unreviewedEvents } = status;
  const waiting =
    unreviewedEvents === 0
      ? 'nothing new since'
      : `${unreviewedEvents} event${unreviewedEvents === 1 ? '' : 's'} new since, marked below`;
  return (
    <p className={`review-status ${unreviewedEvents === 0 ? 'reviewed' : 'waiting'}`}>
      {latest ? (
        <>
          <strong>
            Reviewed through event {latest.throughSeq} by {reviewerOf(latest)}
          </strong>{' '}
          on <Time at={latest.at} />
          {latest.note ? <> ("{latest.note}")</> : null}: {waiting}.
        </>
      ) : (
        <>
          <strong>Never reviewed</strong>: {unreviewedEvents} event{unreviewedEvents === 1 ? '' : 's'} wait
          for a first review.
        </>
      )}
    </p>
  );
}

const REVIEW_LABELS = { throughSeq: 'Reviewed through event', note: 'Note' };

/**
 * An auditor signs the log off as reviewed through an event: the review is itself an event of
 * the log, naming the range it covers.
 */
export function RecordReview({ status, onRecorded }: { status: ReviewStatus; onRecorded: () => void }) {
  const { client } = useConsole();
  const [refusal, setRefusal] = useState<unknown>(null);
  const [recorded, setRecorded] = useState<Review | null>(null);
  const [sending, setSending] = useState(false);
  const from = (status.latest?.throughSeq ?? 0) + 1;

  const record = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const note = formText(data, 'note');
    const body = { throughSeq: Number(formText(data, 'throughSeq')), ...(note ? { note } : {}) };
    void (async () => {
      setRefusal(null);
      setRecorded(null);
      setSending(true);
      try {
        const review = await answer(client.POST('/v1/audit/reviews', { body }));
        form.reset();
        setRecorded(review);
        onRecorded();
      } catch (error) {
        setRefusal(error);
      } finally {
        setSending(false);
      }
    })();
  };

  return (
    <section aria-labelledby="review-title">
      <h2 id="review-title">Record a review</h2>
      <p>
        Sign the log off as reviewed: from event {from}
        {status.latest ? `, the first after the last review,` : ''} through the event you name. The review is
        written to the log itself.
      </p>
      <form
        className="inline-form"
        onSubmit={record}
        onInput={() => setRecorded(null)}
        aria-label="Record a review"
        aria-busy={sending}
        key={status.headSeq}
      >
        <label>
          {REVIEW_LABELS.throughSeq}{' '}
          {/* No bounds of its own: the gateway's refusal says which events may be reviewed. */}
          <input name="throughSeq" type="number" min={1} defaultValue={status.headSeq} required />
        </label>
        <label>
          {REVIEW_LABELS.note}{' '}
          <input name="note" maxLength={1000} placeholder="Monthly review: nothing unexplained" />
        </label>
        <button type="submit" disabled={sending || status.unreviewedEvents === 0}>
          Record the review
        </button>
      </form>
      <RefusalNote error={refusal} id="review-refused" labels={REVIEW_LABELS} />
      {recorded && (
        <p className="verdict good" role="status">
          Recorded: events {recorded.fromSeq} to {recorded.throughSeq} reviewed by {reviewerOf(recorded)}, as
          event {recorded.seq} of the log.
        </p>
      )}
    </section>
  );
}
