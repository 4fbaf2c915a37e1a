import { Badge, TableHead, Time } from '../../components/common';
import { outcomeTone, type AuditRow } from './view';

/** When an event happened; for a folded row, when the call was asked and when it was answered. */
function When({ row }: { row: AuditRow }) {
  if (row.pending === null) return <Time at={row.event.at} />;
  return (
    <span className="times">
      <Time at={row.pending.at} /> <span className="muted">asked,</span>
      <br />
      <Time at={row.event.at} /> <span className="muted">{row.event.outcome}</span>
    </span>
  );
}

/** The audit log's rows, newest first; each opens its event beside the list. */
export function EventsTable({
  rows,
  open,
  onOpen,
  nameOf,
}: {
  rows: AuditRow[];
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
          return (
            <tr key={event.seq} className={isOpen ? 'selected' : undefined}>
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
