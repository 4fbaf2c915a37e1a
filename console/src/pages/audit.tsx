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
  const { client } = useConsole();
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
  const nameOf = useCallback((_reference: string | null): string | null => null, []);

  const go = (change: Partial<AuditView>): void => navigate(viewAddress({ ...view, ...change }));
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
      <AuditFilters
        filter={view.filter}
        actions={actions.value}
        onApply={(applied) => go({ filter: applied, event: null })}
      />
      <p className="muted" role="status">
        {describeFilter(view.filter)}, newest first.
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
      <ExportButton filter={view.filter} />
      <ChainCheck />
    </>
  );
}
