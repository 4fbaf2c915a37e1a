import { Badge, TableHead, Time } from '../../components/common';
import { outcomeTone, type AuditRow } from './view';

/** When an event happened; for a folded row, when the call was answered and when it was asked. */
function When({ row }: { row: AuditRow }) {
  if (row.pending === null) return <Time at={row.event.at} />;
  return (
    <>
      <Time at={row.event.at} />
      <br />
      <span className="muted small-print">
        asked{' '}
        <time dateTime={row.pending.at} title={row.pending.at}>
          {new Date(row.pending.at).toLocaleTimeString()}
        </time>
      </span>
    </>
  );
}

/** The audit log's rows, newest first; each opens its event beside the list. */
export function EventsTable({
  rows,
  open,
  onOpen,
  nameOf,
  reviewedThrough,
}: {
  rows: AuditRow[];
  /** The last event a review covered (0 before the first): later ones are marked new. */
  reviewedThrough: number | null;
  open: number | null;
  onOpen: (seq: number) => void;
  /** The words for an actor or a target, where they are known. */
  nameOf: (reference: string | null) => string | null;
}) {
  return (
    <table className="data audit-events">
      <TableHead columns={['Seq', 'When', 'Actor', 'Action', 'Target', 'Outcome']} />
      <tbody>
        {rows.map((row) => {
          const { event, pending } = row;
          const isOpen = open === event.seq || (pending !== null && open === pending.seq);
          const actor = nameOf(event.actor) ?? event.actor;
          const target = event.target ? (nameOf(event.target) ?? event.target) : '—';
          // A review is not itself waiting for one.
          const isNew =
            reviewedThrough !== null && event.seq > reviewedThrough && event.action !== 'audit.review';
          return (
            <tr
              key={event.seq}
              className={[isOpen && 'selected', isNew && 'unreviewed'].filter(Boolean).join(' ') || undefined}
            >
              <td>
                <button
                  type="button"
                  className="link"
                  aria-label={`Event ${event.seq}: ${event.action} by ${event.actor}`}
                  aria-pressed={isOpen}
                  onClick={() => onOpen(event.seq)}
                >
                  {event.seq}
                </button>
                {pending && <span className="muted small-print"> after {pending.seq}</span>}
                {isNew && (
                  <>
                    {' '}
                    <Badge text="new" tone="busy" />
                  </>
                )}
              </td>
              <td>
                <When row={row} />
              </td>
              <td className="wrap" title={actor !== event.actor ? event.actor : undefined}>
                {actor}
              </td>
              <td>{event.action}</td>
              <td className="wrap" title={event.target && target !== event.target ? event.target : undefined}>
                {target}
              </td>
              <td>
                <Badge text={event.outcome} tone={outcomeTone(event.outcome)} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
