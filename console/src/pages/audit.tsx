import { useCallback, useState, type FormEvent } from 'react';
import type { components } from '../../../clients/typescript/src';
import { Badge, ErrorNote, JsonBlock, Time, TableHead } from '../components/common';
import { useConsole } from '../console-context';
import { answer, errorMessage } from '../gateway';
import { usePagedList } from '../paged-list';
import { href } from '../router';
import { formText } from '../form';

type AuditEvent = components['schemas']['AuditEventView'];
type Verification = components['schemas']['ChainVerificationView'];
type Checkpoint = components['schemas']['AuditCheckpointView'];

interface Filter {
  actor?: string;
  action?: string;
  target?: string;
  outcome?: 'succeeded' | 'failed' | 'denied' | 'pending';
  from?: string;
  to?: string;
}

const PAGE_SIZE = 50;
const OUTCOMES = ['succeeded', 'failed', 'denied', 'pending'] as const;

/** The filter form's fields as the API takes them: empty ones left out, local times as instants. */
function filterOf(form: HTMLFormElement): Filter {
  const data = new FormData(form);
  const text = (name: string): string | undefined => formText(data, name) || undefined;
  const instant = (name: string): string | undefined => {
    const local = text(name);
    return local === undefined ? undefined : new Date(local).toISOString();
  };
  return {
    actor: text('actor'),
    action: text('action'),
    target: text('target'),
    outcome: text('outcome') as Filter['outcome'],
    from: instant('from'),
    to: instant('to'),
  };
}

function outcomeTone(outcome: string): 'good' | 'bad' | 'busy' | 'plain' {
  return outcome === 'succeeded' ? 'good' : outcome === 'pending' ? 'busy' : 'bad';
}

/** Where an event's target can be looked at further, with a diff. */
function targetLink(target: string | null): { to: string; text: string } | null {
  const [kind, id] = (target ?? '').split(':');
  if (kind === 'dashboard' && id && id !== 'new')
    return { to: href('dashboards', id), text: "Compare this dashboard's versions" };
  if (kind === 'pipe-spec' && id)
    return { to: href('history', id), text: 'Open this pipe spec and compare it' };
  return null;
}

export function AuditPage() {
  const { client } = useConsole();
  const readPage = useCallback(
    (filter: Filter, cursor: string | undefined) =>
      answer(client.GET('/v1/audit', { params: { query: { ...filter, limit: PAGE_SIZE, cursor } } })),
    [client],
  );
  const events = usePagedList(readPage, {});
  const [selected, setSelected] = useState<AuditEvent | null>(null);

  const apply = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    setSelected(null);
    events.apply(filterOf(event.currentTarget));
  };

  const link = selected ? targetLink(selected.target ?? null) : null;
  return (
    <>
      <h1>Audit log</h1>
      <form className="filters" onSubmit={apply} aria-label="Filter the audit log">
        <label>
          Actor <input name="actor" placeholder="user:dana@example.com" />
        </label>
        <label>
          Action <input name="action" placeholder="credential.rotate" />
        </label>
        <label>
          Target <input name="target" placeholder="dashboard:…" />
        </label>
        <label>
          Outcome
          <select name="outcome" defaultValue="">
            <option value="">any</option>
            {OUTCOMES.map((outcome) => (
              <option key={outcome}>{outcome}</option>
            ))}
          </select>
        </label>
        <label>
          From <input name="from" type="datetime-local" step="1" />
        </label>
        <label>
          Before <input name="to" type="datetime-local" step="1" />
        </label>
        <div className="actions">
          <button type="submit">Apply filters</button>
          <button type="reset" className="secondary">
            Clear
          </button>
        </div>
      </form>
      <ErrorNote message={events.problem} />
      <div className="split">
        <section aria-labelledby="events-title" className="list">
          <h2 id="events-title">
            Events{' '}
            <span className="muted">
              (newest first{events.items.length > 0 ? `, ${events.items.length} shown` : ''})
            </span>
          </h2>
          {events.items.length === 0 && !events.loading && !events.problem ? (
            <p className="empty">No event matches these filters.</p>
          ) : (
            <table className="data">
              <TableHead columns={['Seq', 'When', 'Actor', 'Action', 'Target', 'Outcome']} />
              <tbody>
                {events.items.map((item) => (
                  <tr key={item.seq} className={selected?.seq === item.seq ? 'selected' : undefined}>
                    <td>
                      <button
                        type="button"
                        className="link"
                        aria-label={`Event ${item.seq}: ${item.action} by ${item.actor}`}
                        aria-pressed={selected?.seq === item.seq}
                        onClick={() => setSelected(item)}
                      >
                        {item.seq}
                      </button>
                    </td>
                    <td>
                      <Time at={item.at} />
                    </td>
                    <td className="wrap">{item.actor}</td>
                    <td>{item.action}</td>
                    <td className="wrap">{item.target ?? '—'}</td>
                    <td>
                      <Badge text={item.outcome} tone={outcomeTone(item.outcome)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {events.loading && <p role="status">Loading events…</p>}
          {events.hasMore && !events.loading && (
            <button type="button" className="secondary" onClick={events.more}>
              Load older events
            </button>
          )}
        </section>
        {selected && (
          <section aria-labelledby="event-title" className="detail">
            <h2 id="event-title">Event {selected.seq}</h2>
            <dl>
              <dt>When</dt>
              <dd>
                <Time at={selected.at} />
              </dd>
              <dt>Actor</dt>
              <dd>
                {selected.actor}
                {selected.onBehalfOf ? ` for ${selected.onBehalfOf}` : ''}
              </dd>
              <dt>Action</dt>
              <dd>{selected.action}</dd>
              <dt>Target</dt>
              <dd className="wrap">{selected.target ?? '—'}</dd>
              <dt>Outcome</dt>
              <dd>
                {selected.outcome}
                {selected.httpStatus ? ` (HTTP ${selected.httpStatus})` : ''}
              </dd>
              <dt>Request id</dt>
              <dd className="wrap">{selected.requestId}</dd>
              <dt>Hash</dt>
              <dd className="hash">{selected.hash}</dd>
            </dl>
            {link && <a href={link.to}>{link.text}</a>}
            <h3>Details</h3>
            <JsonBlock value={selected.details ?? null} label={`Details of event ${selected.seq}`} />
          </section>
        )}
      </div>
      <ExportButton filter={events.filter} />
      <ChainCheck />
    </>
  );
}

/** The current filter's events as NDJSON, fetched with the in-memory token and saved as a file. */
function ExportButton({ filter }: { filter: Filter }) {
  const { client } = useConsole();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const exportEvents = async (): Promise<void> => {
    setBusy(true);
    setProblem(null);
    try {
      const blob = await answer(
        client.GET('/v1/audit/export', { params: { query: filter }, parseAs: 'blob' }),
      );
      const url = URL.createObjectURL(blob);
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = `audit-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.ndjson`;
      anchor.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="export-title">
      <h2 id="export-title">Export</h2>
      <p>Every event the filters above select, oldest first, one JSON object per line.</p>
      <button type="button" onClick={() => void exportEvents()} disabled={busy}>
        {busy ? 'Exporting…' : 'Export as NDJSON'}
      </button>
      <ErrorNote message={problem} />
    </section>
  );
}

/** Verifies the hash chain, whole or against a checkpoint kept outside the gateway. */
function ChainCheck() {
  const { client } = useConsole();
  const [result, setResult] = useState<Verification | null>(null);
  const [checkpoint, setCheckpoint] = useState<Checkpoint | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  const verifyWhole = () =>
    run(async () => {
      setResult(null);
      setResult(await answer(client.GET('/v1/audit/verify')));
    });
  const takeCheckpoint = () =>
    run(async () => {
      setCheckpoint(await answer(client.GET('/v1/audit/checkpoint')));
    });
  const verifyFrom = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const text = formText(new FormData(event.currentTarget), 'checkpoint');
    void run(async () => {
      let kept: Checkpoint;
      try {
        kept = JSON.parse(text) as Checkpoint;
      } catch {
        throw new Error('The checkpoint is not JSON: paste it exactly as it was taken.');
      }
      setResult(null);
      setResult(await answer(client.POST('/v1/audit/verify', { body: { checkpoint: kept } })));
    });
  };

  return (
    <section aria-labelledby="chain-title">
      <h2 id="chain-title">Chain verification</h2>
      <p>
        Recomputes every event's hash from the start of the chain. To find newest events cut off, verify
        against a checkpoint you kept outside the gateway.
      </p>
      <div className="actions">
        <button type="button" onClick={() => void verifyWhole()} disabled={busy}>
          Verify the whole chain
        </button>
        <button type="button" className="secondary" onClick={() => void takeCheckpoint()} disabled={busy}>
          Take a checkpoint
        </button>
      </div>
      {busy && <p role="status">Working…</p>}
      <ErrorNote message={problem} />
      <div aria-live="polite">
        {result &&
          (result.ok ? (
            <p className="verdict good">
              <strong>ok</strong>: the chain is intact — {result.checked} events checked, up to seq{' '}
              {result.lastSeq}
              {result.checkpoint
                ? `; the checkpoint at seq ${result.checkpoint.seq} was ${result.checkpoint.status}`
                : ''}
              .
            </p>
          ) : (
            <p className="verdict bad">
              <strong>Broken at seq {result.firstBadSeq}</strong>: {result.reason}.
            </p>
          ))}
      </div>
      {checkpoint && (
        <>
          <h3>Checkpoint at seq {checkpoint.seq}</h3>
          <p>
            Keep it somewhere the gateway's database administrators cannot write, then paste it below later.
          </p>
          <JsonBlock value={checkpoint} label="The checkpoint" />
        </>
      )}
      <form onSubmit={verifyFrom} className="stack">
        <label htmlFor="checkpoint">A kept checkpoint (JSON)</label>
        <textarea id="checkpoint" name="checkpoint" rows={4} required spellCheck={false} />
        <button type="submit" disabled={busy}>
          Verify against this checkpoint
        </button>
      </form>
    </section>
  );
}
