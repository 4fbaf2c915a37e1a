import { useCallback, useEffect, useMemo, useRef } from 'react';
import { ErrorNote } from '../components/common';
import { useConsole } from '../console-context';
import { answer } from '../gateway';
import { usePagedList } from '../paged-list';
import { navigate } from '../router';
import { useData } from '../use-data';
import { ChainCheck } from './audit/chain-check';
import { EventDetail } from './audit/event-detail';
import { EventsTable } from './audit/events-table';
import { ExportButton } from './audit/export-button';
import { AuditFilters } from './audit/filters';
import { RecordReview, ReviewStatusLine } from './audit/review';
import { SinkStates } from './audit/sinks';
import {
  describeFilter,
  foldPending,
  parseView,
  viewAddress,
  type AuditFilter,
  type AuditView,
} from './audit/view';

const PAGE_SIZE = 50;
/** How many pages an address's open event is looked for in, newest first, before giving up. */
const SEEK_PAGES = 20;

/**
 * The tenant's audit log: filtered, one event open beside it, exported, its chain verified. What
 * is filtered and open lives in the page's address.
 */
export function AuditPage({ query }: { query: string }) {
  const { client, can } = useConsole();
  const view = useMemo(() => parseView(query), [query]);
  // The list is read again when the filter changes, not when an event is opened.
  const filterKey = JSON.stringify(view.filter);
  const filter = useMemo(() => JSON.parse(filterKey) as AuditFilter, [filterKey]);
  const readPage = useCallback(
    (applied: AuditFilter, cursor: string | undefined, signal: AbortSignal) =>
      answer(
        client.GET('/v1/audit', { params: { query: { ...applied, limit: PAGE_SIZE, cursor } }, signal }),
      ),
    [client],
  );
  const events = usePagedList(readPage, filter);
  const actions = useData(
    useCallback(
      (signal: AbortSignal) => answer(client.GET('/v1/audit/actions', { signal })).then((list) => list.items),
      [client],
    ),
  );
  const readReviews = useCallback(
    (signal: AbortSignal) => answer(client.GET('/v1/audit/reviews/latest', { signal })),
    [client],
  );
  const review = useData(can('AuditReviewsController_latest') ? readReviews : null);
  const readSinks = useCallback(
    (signal: AbortSignal) => answer(client.GET('/v1/audit/sinks', { signal })).then((states) => states.sinks),
    [client],
  );
  const sinks = useData(can('AuditSinkStatesController_list') ? readSinks : null);
  const readChoices = useCallback(
    async (signal: AbortSignal) => {
      const query = { params: { query: { limit: 200 } }, signal };
      const [actors, targets] = await Promise.all([
        answer(client.GET('/v1/audit/actors', query)),
        answer(client.GET('/v1/audit/targets', query)),
      ]);
      return {
        actors: actors.items.map((item) => ({ value: item.actor, label: item.name ?? item.actor })),
        targets: targets.items.map((item) => ({ value: item.target, label: item.name ?? item.target })),
      };
    },
    [client],
  );
  const choices = useData(readChoices).value;
  // The names the gateway knows for the actors and targets of the pages read.
  const names = useMemo(
    () => Object.assign({}, ...events.pages.map((page) => page.names)) as Record<string, string>,
    [events.pages],
  );
  const nameOf = useCallback(
    (reference: string | null): string | null => (reference ? (names[reference] ?? null) : null),
    [names],
  );
  // Which actors a typed name stood for; an actor written in its form stands for itself.
  const matched = events.pages[0]?.actorsLookedFor;
  const lookedFor = matched?.length === 1 && matched[0] === view.filter.actor ? undefined : matched;

  // Applying the filters shown reads the log again, as a new filter would.
  const go = (change: Partial<AuditView>): void => {
    const address = viewAddress({ ...view, ...change });
    if (address !== window.location.hash) return navigate(address);
    events.retry();
    review.retry();
    sinks.retry();
  };
  const rows = foldPending(events.items);
  const shown = view.hideUses ? rows.filter((row) => row.event.action !== 'credential.use') : rows;
  const open =
    view.event === null
      ? null
      : (rows.find((row) => row.event.seq === view.event || row.pending?.seq === view.event) ?? null);

  // An address naming an event older than the first page: read on until it is found.
  const sought = useRef(0);
  const { hasMore, loading, more } = events;
  useEffect(() => {
    if (view.event === null || open !== null || !hasMore || loading || sought.current >= SEEK_PAGES) return;
    sought.current += 1;
    more();
  }, [view.event, open, hasMore, loading, more]);

  return (
    <>
      <h1>Audit log</h1>
      {review.value && <ReviewStatusLine status={review.value} />}
      <ErrorNote message={review.problem} onRetry={review.retry} />
      {sinks.value && <SinkStates sinks={sinks.value} />}
      <ErrorNote message={sinks.problem} onRetry={sinks.retry} />
      <AuditFilters
        filter={view.filter}
        actions={actions.value}
        actors={choices?.actors}
        targets={choices?.targets}
        onApply={(applied) => go({ filter: applied, event: null })}
      />
      <p className="muted" role="status">
        {describeFilter(view.filter)}, newest first.
        {lookedFor && lookedFor.length > 0 && ` Looked for ${lookedFor.join(', ')}.`}
        {lookedFor && lookedFor.length === 0 && ' No actor goes by that name.'}
      </p>
      <ErrorNote message={events.problem} onRetry={events.retry} />
      <div className="split">
        <section aria-labelledby="events-title" className="list">
          <div className="section-head">
            <h2 id="events-title">
              Events{' '}
              <span className="muted">
                ({events.items.length > 0 ? `${shown.length} shown` : 'none read'}
                {rows.length > shown.length
                  ? `, ${rows.length - shown.length} credential use roll-ups hidden`
                  : ''}
                )
              </span>
            </h2>
            <label className="check">
              <input
                type="checkbox"
                checked={view.hideUses}
                onChange={(event) => go({ hideUses: event.target.checked })}
              />{' '}
              Hide credential use roll-ups
            </label>
          </div>
          {events.items.length === 0 && !events.loading && !events.problem ? (
            <p className="empty">No event matches these filters.</p>
          ) : (
            <EventsTable
              reviewedThrough={review.value ? (review.value.latest?.throughSeq ?? 0) : null}
              rows={shown}
              open={view.event}
              onOpen={(seq) => go({ event: seq })}
              nameOf={nameOf}
            />
          )}
          {events.loading && <p role="status">Loading events…</p>}
          {events.hasMore && !events.loading && (
            <button type="button" className="secondary" onClick={events.more}>
              Load older events
            </button>
          )}
        </section>
        {open ? (
          <EventDetail key={open.event.seq} row={open} nameOf={nameOf} />
        ) : (
          view.event !== null &&
          !events.loading &&
          !events.problem && (
            <section className="detail" aria-label="The event asked for">
              <p className="empty">
                Event {view.event} is not among the events these filters select
                {events.hasMore ? ' in the newest pages read' : ''}.
              </p>
            </section>
          )
        )}
      </div>
      {review.value && can('AuditReviewsController_record') && (
        <RecordReview
          status={review.value}
          onRecorded={() => {
            review.retry();
            events.retry();
          }}
        />
      )}
      <ExportButton filter={view.filter} />
      <ChainCheck />
    </>
  );
}
