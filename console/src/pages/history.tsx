import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { components } from '../../../clients/typescript/src';
import { Badge, ErrorNote, JsonBlock, Time, TableHead } from '../components/common';
import { DiffView } from '../components/diff-view';
import { useConsole } from '../console-context';
import { answer, errorMessage } from '../gateway';
import { usePagedList } from '../paged-list';
import { href } from '../router';
import { formText } from '../form';

type SpecRecord = components['schemas']['PipeSpecRecordView'];

const PAGE_SIZE = 50;

function nameOf(record: SpecRecord): string {
  const name = (record.spec as Record<string, unknown>).name;
  return typeof name === 'string' ? name : '(no name)';
}

function tone(outcome: SpecRecord['outcome']): 'good' | 'bad' | 'busy' | 'plain' {
  return outcome === 'succeeded' ? 'good' : outcome === 'failed' ? 'bad' : 'busy';
}

/**
 * Every pipe create spec submitted, secrets redacted: compare two side by side, open one, submit
 * one again (operators).
 */
export function HistoryPage({ recordId }: { recordId: string | null }) {
  return recordId === null ? <SpecList /> : <SpecRecordView id={recordId} />;
}

function SpecList() {
  const { client } = useConsole();
  const readPage = useCallback(
    (serviceId: string | undefined, cursor: string | undefined) =>
      answer(
        client.GET('/v1/history/pipe-specs', { params: { query: { serviceId, limit: PAGE_SIZE, cursor } } }),
      ),
    [client],
  );
  const specs = usePagedList(readPage, undefined as string | undefined);
  const records = specs.items;
  const serviceId = specs.filter;
  const [compared, setCompared] = useState<string[]>([]);

  const filter = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    setCompared([]);
    specs.apply(formText(new FormData(event.currentTarget), 'serviceId') || undefined);
  };
  const toggle = (id: string): void =>
    setCompared((chosen) =>
      chosen.includes(id) ? chosen.filter((other) => other !== id) : [...chosen, id].slice(-2),
    );
  const [older, newer] = compared
    .map((id) => records.find((record) => record.id === id)!)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));

  return (
    <>
      <h1>Pipe spec history</h1>
      <p>
        Every pipe create request the gateway accepted, secrets replaced by [redacted]. Tick two to compare
        them.
      </p>
      <form className="filters" onSubmit={filter} aria-label="Filter the history">
        <label>
          Service id{' '}
          <input className="id-field" name="serviceId" defaultValue={serviceId} placeholder="any service" />
        </label>
        <div className="actions">
          <button type="submit">Show</button>
        </div>
      </form>
      <ErrorNote message={specs.problem} />
      {records.length === 0 && !specs.loading && !specs.problem ? (
        <p className="empty">No pipe has been submitted{serviceId ? ' for this service' : ''} yet.</p>
      ) : (
        <table className="data">
          <TableHead columns={['Compare', 'Submitted', 'Pipe name', 'By', 'Outcome']} />
          <tbody>
            {records.map((record) => (
              <tr key={record.id}>
                <td>
                  <input
                    type="checkbox"
                    checked={compared.includes(record.id)}
                    onChange={() => toggle(record.id)}
                    aria-label={`Compare the spec of ${nameOf(record)} submitted ${new Date(record.createdAt).toLocaleString()}`}
                  />
                </td>
                <td>
                  <a href={href('history', record.id)}>
                    <Time at={record.createdAt} />
                  </a>
                </td>
                <td>{nameOf(record)}</td>
                <td className="wrap">
                  {record.onBehalfOf ? `${record.actor} for ${record.onBehalfOf}` : record.actor}
                </td>
                <td>
                  <Badge text={record.outcome} tone={tone(record.outcome)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {specs.loading && <p role="status">Loading…</p>}
      {specs.hasMore && !specs.loading && (
        <button type="button" className="secondary" onClick={specs.more}>
          Load older specs
        </button>
      )}
      {older && newer && (
        <DiffView
          before={older.spec}
          after={newer.spec}
          beforeLabel={`${nameOf(older)}, ${new Date(older.createdAt).toLocaleString()}`}
          afterLabel={`${nameOf(newer)}, ${new Date(newer.createdAt).toLocaleString()}`}
        />
      )}
    </>
  );
}

/** One submitted spec, compared with the one submitted before it for the same service. */
function SpecRecordView({ id }: { id: string }) {
  const { client, can } = useConsole();
  const [record, setRecord] = useState<SpecRecord | null>(null);
  const [previous, setPrevious] = useState<SpecRecord | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [resubmitted, setResubmitted] = useState<string | null>(null);

  useEffect(() => {
    void (async () => {
      try {
        const found = await answer(client.GET('/v1/history/pipe-specs/{id}', { params: { path: { id } } }));
        setRecord(found);
        const before = await answer(
          client.GET('/v1/history/pipe-specs', {
            params: { query: { serviceId: found.serviceId, to: found.createdAt, limit: 1 } },
          }),
        );
        setPrevious(before.items[0] ?? null);
      } catch (error) {
        setProblem(errorMessage(error));
      }
    })();
  }, [client, id]);

  const resubmit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const name = formText(new FormData(event.currentTarget), 'name') || undefined;
    void (async () => {
      setProblem(null);
      try {
        const created = await answer(
          client.POST('/v1/history/pipe-specs/{id}/resubmit', { params: { path: { id } }, body: { name } }),
        );
        setResubmitted(created.result.id ?? 'a new pipe');
      } catch (error) {
        setProblem(errorMessage(error));
      }
    })();
  };

  return (
    <>
      <p>
        <a href={href('history')}>← All pipe specs</a>
      </p>
      <h1>{record ? `Pipe spec: ${nameOf(record)}` : 'Pipe spec'}</h1>
      <ErrorNote message={problem} />
      {record && (
        <>
          <dl>
            <dt>Submitted</dt>
            <dd>
              <Time at={record.createdAt} /> by {record.actor}
              {record.onBehalfOf ? ` for ${record.onBehalfOf}` : ''}
            </dd>
            <dt>Outcome</dt>
            <dd>
              {record.outcome}
              {record.upstreamStatus ? ` (pipes API ${record.upstreamStatus})` : ''}
            </dd>
            <dt>Pipe</dt>
            <dd className="wrap">{record.pipeId ?? '—'}</dd>
            <dt>Organization / service</dt>
            <dd className="wrap">
              {record.organizationId} / {record.serviceId}
            </dd>
          </dl>
          {can('PipeSpecHistoryController_resubmit') && (
            <form onSubmit={resubmit} className="inline-form" aria-label="Submit this spec again">
              <label>
                New pipe name <input name="name" placeholder={nameOf(record)} />
              </label>
              <button type="submit">Submit again</button>
            </form>
          )}
          {resubmitted && (
            <p className="verdict good" role="status">
              Submitted again: pipe {resubmitted}.
            </p>
          )}
          {previous ? (
            <DiffView
              before={previous.spec}
              after={record.spec}
              beforeLabel={`previous spec (${nameOf(previous)}, ${new Date(previous.createdAt).toLocaleString()})`}
              afterLabel="this spec"
            />
          ) : (
            <>
              <p className="empty">This is the first spec submitted for this service.</p>
              <JsonBlock value={record.spec} label="The submitted spec" />
            </>
          )}
        </>
      )}
    </>
  );
}
