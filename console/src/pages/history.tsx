import { useCallback, useState, type FormEvent } from 'react';
import type { components } from '../../../clients/typescript/src';
import { Badge, ErrorNote, JsonBlock, Time, TableHead } from '../components/common';
import { DiffView } from '../components/diff-view';
import { useConsole } from '../console-context';
import { answer } from '../gateway';
import { resubmitSpec } from '../resubmit';
import { RefusalNote } from '../components/refused-fields';
import { useData } from '../use-data';
import { usePagedList } from '../paged-list';
import { href, navigate, withQuery } from '../router';
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
export function HistoryPage({ recordId, query }: { recordId: string | null; query: string }) {
  return recordId === null ? <SpecList query={query} /> : <SpecRecordView id={recordId} />;
}

/** The specs, of one service when the address names it (`#/history?service=<id>`). */
function SpecList({ query }: { query: string }) {
  const { client } = useConsole();
  const serviceId = new URLSearchParams(query).get('service') || undefined;
  const readPage = useCallback(
    (service: string | undefined, cursor: string | undefined, signal: AbortSignal) =>
      answer(
        client.GET('/v1/history/pipe-specs', {
          params: { query: { serviceId: service, limit: PAGE_SIZE, cursor } },
          signal,
        }),
      ),
    [client],
  );
  const specs = usePagedList(readPage, serviceId);
  const records = specs.items;
  const [compared, setCompared] = useState<string[]>([]);

  const filter = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    setCompared([]);
    navigate(
      withQuery(href('history'), { service: formText(new FormData(event.currentTarget), 'serviceId') }),
    );
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
      <form className="filters" onSubmit={filter} aria-label="Filter the history" key={serviceId ?? ''}>
        <label>
          Service id{' '}
          <input className="id-field" name="serviceId" defaultValue={serviceId} placeholder="any service" />
        </label>
        <div className="actions">
          <button type="submit">Show</button>
        </div>
      </form>
      <ErrorNote message={specs.problem} onRetry={specs.retry} />
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
  const read = useData(
    useCallback(
      async (signal: AbortSignal) => {
        const found = await answer(
          client.GET('/v1/history/pipe-specs/{id}', { params: { path: { id } }, signal }),
        );
        const before = await answer(
          client.GET('/v1/history/pipe-specs', {
            params: { query: { serviceId: found.serviceId, to: found.createdAt, limit: 1 } },
            signal,
          }),
        );
        return { record: found, previous: before.items[0] ?? null };
      },
      [client, id],
    ),
  );
  const record = read.value?.record ?? null;
  const previous = read.value?.previous ?? null;
  const [refusal, setRefusal] = useState<unknown>(null);
  const [resubmitted, setResubmitted] = useState<{ id: string; name: string } | null>(null);

  const resubmit = (event: FormEvent<HTMLFormElement>): void => {
    setRefusal(null);
    resubmitSpec(client, id, event).then(
      (created) => setResubmitted({ id: created.id ?? '', name: created.name ?? 'the new pipe' }),
      setRefusal,
    );
  };

  return (
    <>
      <p>
        <a href={href('history')}>← All pipe specs</a>
      </p>
      <h1>{record ? `Pipe spec: ${nameOf(record)}` : 'Pipe spec'}</h1>
      <ErrorNote message={read.problem} onRetry={read.retry} />
      {record === null && !read.problem && <p role="status">Loading the spec…</p>}
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
            <form
              onSubmit={resubmit}
              onInput={() => setResubmitted(null)}
              className="inline-form"
              aria-label="Submit this spec again"
            >
              <label>
                New pipe name <input name="name" placeholder={nameOf(record)} />
              </label>
              <button type="submit">Submit again</button>
            </form>
          )}
          <RefusalNote error={refusal} id="resubmit-refused" labels={{ name: 'New pipe name' }} />
          {resubmitted && (
            <p className="verdict good" role="status">
              Submitted again: pipe{' '}
              {resubmitted.id ? (
                <a href={href('pipes', record.organizationId, record.serviceId, resubmitted.id)}>
                  {resubmitted.name}
                </a>
              ) : (
                resubmitted.name
              )}{' '}
              is being created.
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
