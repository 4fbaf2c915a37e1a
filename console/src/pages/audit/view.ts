import type { components } from '../../../../clients/typescript/src';
import { href, withQuery } from '../../router';

export type AuditEvent = components['schemas']['AuditEventView'];

export const OUTCOMES = ['succeeded', 'failed', 'denied', 'pending'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The filters as the API takes them. */
export interface AuditFilter {
  actor?: string;
  action?: string;
  target?: string;
  outcome?: Outcome;
  from?: string;
  to?: string;
}

/** What the audit page shows, as its address holds it. */
export interface AuditView {
  filter: AuditFilter;
  /** The seq of the event open beside the list. */
  event: number | null;
  /** Whether credential.use roll-ups are left out of the list. */
  hideUses: boolean;
}

const FILTER_NAMES = ['actor', 'action', 'target', 'outcome', 'from', 'to'] as const;

/** The view a page address's query describes; what it does not name is not filtered. */
export function parseView(query: string): AuditView {
  const values = new URLSearchParams(query);
  const filter: AuditFilter = {};
  for (const name of FILTER_NAMES) {
    const value = values.get(name)?.trim();
    if (!value) continue;
    if (name === 'outcome') {
      if ((OUTCOMES as readonly string[]).includes(value)) filter.outcome = value as Outcome;
    } else filter[name] = value;
  }
  const event = Number(values.get('event'));
  return {
    filter,
    event: Number.isInteger(event) && event > 0 ? event : null,
    hideUses: values.get('uses') === 'hidden',
  };
}

/** The address of a view: the page's, with what it filters and opens. */
export function viewAddress(view: AuditView): string {
  return withQuery(href('audit'), {
    ...view.filter,
    event: view.event === null ? null : String(view.event),
    uses: view.hideUses ? 'hidden' : null,
  });
}

/** The filter in words, for the line that says what the list shows. */
export function describeFilter(filter: AuditFilter): string {
  const parts: string[] = [];
  if (filter.actor) parts.push(`by ${filter.actor}`);
  if (filter.action) {
    parts.push(
      filter.action.endsWith('.') ? `every ${filter.action.slice(0, -1)} action` : `action ${filter.action}`,
    );
  }
  if (filter.target) parts.push(`on ${filter.target}`);
  if (filter.outcome) parts.push(`that ${filter.outcome === 'pending' ? 'are pending' : filter.outcome}`);
  if (filter.from) parts.push(`from ${new Date(filter.from).toLocaleString()}`);
  if (filter.to) parts.push(`before ${new Date(filter.to).toLocaleString()}`);
  return parts.length === 0 ? 'Every event' : `Events ${parts.join(', ')}`;
}

/** One row of the list: an event, with the pending event its outcome followed when both are read. */
export interface AuditRow {
  event: AuditEvent;
  pending: AuditEvent | null;
}

const requestKey = (event: AuditEvent): string => `${event.requestId} ${event.action}`;

/**
 * The events as rows: a pending event (written before an upstream call) and its outcome (the same
 * request and action) become one row, shown where the outcome is.
 */
export function foldPending(events: AuditEvent[]): AuditRow[] {
  const outcomes = new Set(
    events.filter((event) => event.outcome !== 'pending').map((event) => requestKey(event)),
  );
  const pendings = new Map(
    events.filter((event) => event.outcome === 'pending').map((event) => [requestKey(event), event]),
  );
  return events
    .filter((event) => event.outcome !== 'pending' || !outcomes.has(requestKey(event)))
    .map((event) => ({
      event,
      pending: event.outcome === 'pending' ? null : (pendings.get(requestKey(event)) ?? null),
    }));
}

export function outcomeTone(outcome: string): 'good' | 'bad' | 'busy' | 'plain' {
  return outcome === 'succeeded' ? 'good' : outcome === 'pending' ? 'busy' : 'bad';
}
