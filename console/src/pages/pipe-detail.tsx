import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { components } from '../../../clients/typescript/src';
import { Badge, ConfirmButton, ErrorNote, JsonBlock, TableHead, Time } from '../components/common';
import { RefusalNote } from '../components/refused-fields';
import { useConsole } from '../console-context';
import { answer, errorMessage, newIdempotencyKey } from '../gateway';
import { formText } from '../form';
import { usePipeStates, type Pipe } from '../pipe-states';
import { href, navigate } from '../router';
import { shortId, stateTone, type Service } from './pipes';

type Settings = components['schemas']['PipeSettings'];
type SettingsBody = components['schemas']['PipeSettingsBody'];
type SpecRecord = components['schemas']['PipeSpecRecordView'];
type PipePath = Service & { pipeId: string };

/**
 * One pipe: its live state and commands, the pipe as the gateway reads it (secrets removed), its
 * settings, and the specs it was created from. Each part is offered to whoever may use it.
 */
export function PipeDetailPage({ organizationId, serviceId, pipeId }: Service & { pipeId: string }) {
  const { client, can } = useConsole();
  const states = usePipeStates(client, organizationId, serviceId);
  const [pipe, setPipe] = useState<Pipe | null>(null);
  const [readAt, setReadAt] = useState<Date | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const live = states.pipes?.find((candidate) => candidate.id === pipeId);

  const read = useCallback(async () => {
    try {
      const found = await answer(
        client.GET('/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}', {
          params: { path: { organizationId, serviceId, pipeId } },
        }),
      );
      setPipe(found.result);
      setReadAt(new Date());
      setProblem(null);
    } catch (error) {
      setProblem(errorMessage(error));
    }
  }, [client, organizationId, serviceId, pipeId]);
  // Read again when the state changes, so the pipe shown is never older than its state.
  const liveState = live?.state;
  useEffect(() => {
    void read();
  }, [read, liveState]);

  const [commandProblem, setCommandProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const name = pipe?.name ?? live?.name ?? pipeId;
  const path = { organizationId, serviceId, pipeId };

  const command = (which: 'start' | 'stop' | 'resync'): void => {
    void (async () => {
      setCommandProblem(null);
      try {
        await answer(
          client.PATCH('/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/state', {
            params: { path },
            body: { command: which },
          }),
        );
        setSent(`${which} sent to ${name}.`);
        states.refresh();
      } catch (error) {
        setCommandProblem(errorMessage(error));
      }
    })();
  };

  const remove = (): void => {
    void (async () => {
      setCommandProblem(null);
      try {
        await answer(
          client.DELETE('/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}', {
            params: { path },
          }),
        );
        navigate(href('pipes', organizationId, serviceId));
      } catch (error) {
        setCommandProblem(errorMessage(error));
      }
    })();
  };

  const state = live?.state ?? pipe?.state;
  return (
    <>
      <p>
        <a href={href('pipes', organizationId, serviceId)}>← Pipes of service {shortId(serviceId)}</a>
      </p>
      <h1>Pipe {name}</h1>
      <ErrorNote message={problem ?? commandProblem} />
      <p className="sr-only" role="status">
        {sent}
      </p>
      <dl className="facts">
        <dt>State</dt>
        <dd>
          {state ? <Badge text={state} tone={stateTone(state)} /> : '—'}{' '}
          {states.readAt && <span className="muted">(updated {states.readAt.toLocaleTimeString()})</span>}
        </dd>
        <dt>Id</dt>
        <dd className="wrap">{pipeId}</dd>
        <dt>Organization / service</dt>
        <dd className="wrap">
          {organizationId} / {serviceId}
        </dd>
        {pipe?.createdAt && (
          <>
            <dt>Created</dt>
            <dd>
              <Time at={pipe.createdAt} />
            </dd>
          </>
        )}
      </dl>
      {(can('PipesController_changeState') || can('PipesController_delete')) && (
        <div className="actions pipe-commands" role="group" aria-label="Commands">
          {can('PipesController_changeState') &&
            (['start', 'stop', 'resync'] as const).map((which) => (
              <button key={which} type="button" className="secondary" onClick={() => command(which)}>
                {which[0].toUpperCase() + which.slice(1)}
              </button>
            ))}
          {can('PipesController_delete') && (
            <ConfirmButton question={`Delete the pipe ${name}? Its data stops flowing.`} onConfirm={remove}>
              Delete
            </ConfirmButton>
          )}
        </div>
      )}
      {can('PipesController_settings') && (
        <PipeSettings path={path} canEdit={can('PipesController_replaceSettings')} />
      )}
      {can('PipeSpecHistoryController_list') && (
        <PipeSpecs path={path} canResubmit={can('PipeSpecHistoryController_resubmit')} />
      )}
      <section aria-labelledby="pipe-read-title">
        <div className="section-head">
          <h2 id="pipe-read-title">The pipe as read</h2>
          <button type="button" className="secondary small" onClick={() => void read()}>
            Read again
          </button>
        </div>
        <p className="muted">
          As the pipes API describes it{readAt ? `, read at ${readAt.toLocaleTimeString()}` : ''}; the gateway
          removes every credential, access key and connection string before it answers.
        </p>
        {pipe ? (
          <JsonBlock value={pipe} label="The pipe as JSON" />
        ) : (
          !problem && <p role="status">Reading…</p>
        )}
      </section>
    </>
  );
}

/** The pipe's advanced settings as the service names them; replaced whole (PUT) by operators. */
function PipeSettings({ path, canEdit }: { path: PipePath; canEdit: boolean }) {
  const { client } = useConsole();
  const [settings, setSettings] = useState<Settings | null>(null);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  const [saved, setSaved] = useState<Date | null>(null);
  const { organizationId, serviceId, pipeId } = path;

  useEffect(() => {
    void answer(
      client.GET('/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings', {
        params: { path: { organizationId, serviceId, pipeId } },
      }),
    ).then(
      (read) => {
        setSettings(read.result);
        setText(JSON.stringify(read.result, null, 2));
      },
      (error: unknown) => setProblem(errorMessage(error)),
    );
  }, [client, organizationId, serviceId, pipeId]);

  const save = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    let body: SettingsBody;
    try {
      body = JSON.parse(text) as SettingsBody;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('not an object');
    } catch {
      setRefusal(
        new Error(
          'The settings must be a JSON object, like {"streaming_max_insert_wait_ms": 1000}. Nothing was sent.',
        ),
      );
      return;
    }
    void (async () => {
      setRefusal(null);
      setSaved(null);
      try {
        const replaced = await answer(
          client.PUT('/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings', {
            params: { path: { organizationId, serviceId, pipeId } },
            body,
          }),
        );
        setSettings(replaced.result);
        setText(JSON.stringify(replaced.result, null, 2));
        setSaved(new Date());
      } catch (error) {
        setRefusal(error);
      }
    })();
  };

  return (
    <section aria-labelledby="pipe-settings-title">
      <h2 id="pipe-settings-title">Settings</h2>
      <ErrorNote message={problem} />
      {settings === null ? (
        !problem && <p role="status">Reading the settings…</p>
      ) : canEdit ? (
        <form className="spec-form" onSubmit={save} aria-label="Change the settings">
          <label className="spec-label" htmlFor="pipe-settings">
            Settings (JSON)
          </label>
          <p className="muted help" id="pipe-settings-help">
            The object sent replaces the pipe's settings whole: a setting left out is no longer set.
          </p>
          <textarea
            id="pipe-settings"
            className="spec-editor short"
            value={text}
            onChange={(event) => setText(event.target.value)}
            spellCheck={false}
            rows={8}
            aria-describedby={refusal !== null ? 'pipe-settings-help settings-refused' : 'pipe-settings-help'}
            aria-invalid={refusal !== null ? true : undefined}
          />
          <div className="actions">
            <button type="submit">Save the settings</button>
          </div>
          {saved && (
            <p className="verdict good" role="status">
              Settings saved at {saved.toLocaleTimeString()}.
            </p>
          )}
          <RefusalNote error={refusal} id="settings-refused" />
        </form>
      ) : (
        <>
          {Object.keys(settings).length === 0 && (
            <p className="empty">No setting is set: the service's defaults apply.</p>
          )}
          <JsonBlock value={settings} label="The pipe's settings" />
        </>
      )}
    </section>
  );
}

/** The create specs the gateway kept for this pipe, each one submittable again as a new pipe. */
function PipeSpecs({ path, canResubmit }: { path: PipePath; canResubmit: boolean }) {
  const { client } = useConsole();
  const [records, setRecords] = useState<SpecRecord[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  const { organizationId, serviceId, pipeId } = path;

  useEffect(() => {
    // The history is listed by service; this pipe's entries are among its newest.
    void answer(
      client.GET('/v1/history/pipe-specs', { params: { query: { organizationId, serviceId, limit: 200 } } }),
    ).then(
      (page) => setRecords(page.items.filter((record) => record.pipeId === pipeId)),
      (error: unknown) => setProblem(errorMessage(error)),
    );
  }, [client, organizationId, serviceId, pipeId]);

  const resubmit = (record: SpecRecord, event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const name = formText(new FormData(event.currentTarget), 'name') || undefined;
    void (async () => {
      setRefusal(null);
      try {
        const created = await answer(
          client.POST('/v1/history/pipe-specs/{id}/resubmit', {
            params: { path: { id: record.id }, header: { 'Idempotency-Key': newIdempotencyKey() } },
            body: { name },
          }),
        );
        const id = created.result.id;
        if (id) navigate(href('pipes', record.organizationId, record.serviceId, id));
      } catch (error) {
        setRefusal(error);
      }
    })();
  };

  return (
    <section aria-labelledby="pipe-specs-title">
      <h2 id="pipe-specs-title">Its spec history</h2>
      <ErrorNote message={problem} />
      {records === null ? (
        !problem && <p role="status">Reading the spec history…</p>
      ) : records.length === 0 ? (
        <p className="empty">No create spec of this pipe was kept: it was not created through the gateway.</p>
      ) : (
        <table className="data">
          <TableHead columns={['Submitted', 'By', 'Outcome', canResubmit && 'Submit again']} />
          <tbody>
            {records.map((record) => (
              <tr key={record.id}>
                <td>
                  <a href={href('history', record.id)}>
                    <Time at={record.createdAt} />
                  </a>
                </td>
                <td className="wrap">
                  {record.onBehalfOf ? `${record.actor} for ${record.onBehalfOf}` : record.actor}
                </td>
                <td>{record.outcome}</td>
                {canResubmit && (
                  <td>
                    <form
                      className="inline-form tight"
                      onSubmit={(event) => resubmit(record, event)}
                      aria-label="Submit this spec again"
                    >
                      <label>
                        New pipe name <input name="name" required />
                      </label>
                      <button type="submit">Submit again</button>
                    </form>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RefusalNote error={refusal} id="resubmit-refused" />
    </section>
  );
}
