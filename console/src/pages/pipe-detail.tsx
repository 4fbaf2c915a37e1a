import { useCallback, useEffect, useRef, useState } from 'react';
import { Badge, ConfirmButton, ErrorNote, JsonBlock, Time } from '../components/common';
import { shortId } from '../components/pipe-link';
import { useConsole } from '../console-context';
import { answer, errorMessage } from '../gateway';
import { usePipeStates } from '../pipe-states';
import { href, navigate } from '../router';
import { useData } from '../use-data';
import { stateTone, type Service } from './pipes';
import { PipeCommandButtons, usePipeCommands } from './pipes/pipe-commands';
import { PipeSettings } from './pipes/pipe-settings';
import { PipeSpecs } from './pipes/pipe-specs';

export type PipePath = Service & { pipeId: string };

/**
 * One pipe: its live state and commands, the pipe as the gateway reads it (secrets removed), its
 * settings, and the specs it was created from. Each part is offered to whoever may use it.
 */
export function PipeDetailPage({ organizationId, serviceId, pipeId }: PipePath) {
  const { client, can } = useConsole();
  const states = usePipeStates(client, organizationId, serviceId);
  const live = states.pipes?.find((candidate) => candidate.id === pipeId);
  const read = useData(
    useCallback(
      (signal: AbortSignal) =>
        answer(
          client.GET('/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}', {
            params: { path: { organizationId, serviceId, pipeId } },
            signal,
          }),
        ).then((found) => ({ pipe: found.result, at: new Date() })),
      [client, organizationId, serviceId, pipeId],
    ),
  );
  const pipe = read.value?.pipe ?? null;
  // Read again when the state changes, so the pipe shown is never older than its state.
  const liveState = live?.state;
  const readState = useRef(liveState);
  const { retry } = read;
  useEffect(() => {
    if (readState.current === liveState) return;
    readState.current = liveState;
    retry();
  }, [liveState, retry]);

  const commands = usePipeCommands({ organizationId, serviceId }, states.refresh);
  const [removeProblem, setRemoveProblem] = useState<string | null>(null);
  const name = pipe?.name ?? live?.name ?? pipeId;
  const path = { organizationId, serviceId, pipeId };

  const remove = (): void => {
    void (async () => {
      setRemoveProblem(null);
      try {
        await answer(
          client.DELETE('/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}', {
            params: { path },
          }),
        );
        navigate(href('pipes', organizationId, serviceId));
      } catch (error) {
        setRemoveProblem(errorMessage(error));
      }
    })();
  };

  const shown = live ?? pipe;
  const state = shown?.state;
  return (
    <>
      <p>
        <a href={href('pipes', organizationId, serviceId)}>← Pipes of service {shortId(serviceId)}</a>
      </p>
      <h1>Pipe {name}</h1>
      <ErrorNote message={read.problem} onRetry={read.retry} />
      <ErrorNote message={states.problem} onRetry={states.refresh} />
      <ErrorNote message={commands.problem ?? removeProblem} />
      <p className="sr-only" role="status">
        {commands.sent}
      </p>
      <dl className="facts">
        <dt>State</dt>
        <dd>
          {state ? <Badge text={state} tone={stateTone(state)} /> : '—'}{' '}
          {states.readAt && <span className="muted">(updated {states.readAt.toLocaleTimeString()})</span>}
        </dd>
        {state === 'Failed' && (
          <>
            <dt>Why</dt>
            <dd>The pipes service reports it failed without saying why; start it again, or read it below.</dd>
          </>
        )}
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
          {can('PipesController_changeState') && shown && (
            <PipeCommandButtons pipe={shown} onCommand={commands.send} />
          )}
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
          <button type="button" className="secondary small" onClick={read.retry}>
            Read again
          </button>
        </div>
        <p className="muted">
          As the pipes API describes it
          {read.value ? `, read at ${read.value.at.toLocaleTimeString()}` : ''}; the gateway removes every
          credential, access key and connection string before it answers.
        </p>
        {pipe ? (
          <JsonBlock value={pipe} label="The pipe as JSON" />
        ) : (
          !read.problem && <p role="status">Reading…</p>
        )}
      </section>
    </>
  );
}
