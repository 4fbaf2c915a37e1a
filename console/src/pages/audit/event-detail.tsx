import { JsonBlock, Time } from '../../components/common';
import { useConsole } from '../../console-context';
import { href } from '../../router';
import type { AuditEvent, AuditRow } from './view';

/**
 * Where an event's target can be looked at further, offered only to whoever may open it there: a
 * dashboard's versions compared, a pipe spec beside the one before it, a credential in the vault.
 */
export function targetLink(
  target: string | null,
  can: (operation: string) => boolean,
): { to: string; text: string } | null {
  const [kind, id] = (target ?? '').split(':');
  if (!id) return null;
  if (kind === 'dashboard' && id !== 'new' && can('DashboardsController_versions'))
    return { to: href('dashboards', id), text: "Compare this dashboard's versions" };
  if (kind === 'pipe-spec' && can('PipeSpecHistoryController_get'))
    return { to: href('history', id), text: 'Open this pipe spec and compare it' };
  if (kind === 'credential' && can('CredentialsController_list'))
    return { to: href('vault', id), text: 'Open this credential in the vault' };
  return null;
}

/**
 * Why an event failed, in words: what the caller was told (`detail`, the upstream's own reason
 * included) where it was recorded, else the upstream's status.
 */
export function failureOf(event: AuditEvent): string | null {
  if (event.outcome !== 'failed' && event.outcome !== 'denied') return null;
  const details = (event.details ?? {}) as Record<string, unknown>;
  const reason = typeof details.detail === 'string' ? details.detail : null;
  const status = typeof details.upstreamStatus === 'number' ? details.upstreamStatus : null;
  const problem = typeof details.problem === 'string' ? details.problem : null;
  if (reason) return status ? `The upstream answered ${status}: ${reason}` : reason;
  if (status) return `The upstream answered ${status}${problem ? ` (${problem})` : ''}, without a reason.`;
  return problem ? `The gateway recorded ${problem}.` : null;
}

/** One event, open beside the list: who did what to what, when, why it failed, and its hash. */
export function EventDetail({
  row,
  nameOf,
}: {
  row: AuditRow;
  nameOf: (reference: string | null) => string | null;
}) {
  const { can } = useConsole();
  const { event, pending } = row;
  const link = targetLink(event.target ?? null, can);
  const failure = failureOf(event);
  const actorName = nameOf(event.actor);
  const targetName = nameOf(event.target ?? null);
  return (
    <section aria-labelledby="event-title" className="detail">
      <h2 id="event-title">Event {event.seq}</h2>
      <dl>
        {pending && (
          <>
            <dt>Asked</dt>
            <dd>
              <Time at={pending.at} /> <span className="muted">(event {pending.seq}, pending)</span>
            </dd>
          </>
        )}
        <dt>{pending ? 'Answered' : 'When'}</dt>
        <dd>
          <Time at={event.at} />
        </dd>
        <dt>Actor</dt>
        <dd className="wrap">
          {actorName ? (
            <>
              {actorName} <span className="muted">({event.actor})</span>
            </>
          ) : (
            event.actor
          )}
          {event.onBehalfOf ? ` for ${event.onBehalfOf}` : ''}
        </dd>
        <dt>Action</dt>
        <dd>{event.action}</dd>
        <dt>Target</dt>
        <dd className="wrap">
          {targetName ? (
            <>
              {targetName} <span className="muted">({event.target})</span>
            </>
          ) : (
            (event.target ?? '—')
          )}
        </dd>
        <dt>Outcome</dt>
        <dd>
          {event.outcome}
          {event.httpStatus ? ` (HTTP ${event.httpStatus})` : ''}
        </dd>
        {failure && (
          <>
            <dt>Why</dt>
            <dd className="wrap failure-reason">{failure}</dd>
          </>
        )}
        <dt>Request id</dt>
        <dd className="wrap">{event.requestId}</dd>
        <dt>Hash</dt>
        <dd className="hash">{event.hash}</dd>
      </dl>
      {link && <a href={link.to}>{link.text}</a>}
      <h3>Details</h3>
      <JsonBlock value={event.details ?? null} label={`Details of event ${event.seq}`} />
    </section>
  );
}
