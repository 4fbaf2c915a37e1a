import { useCallback, useEffect, useState } from 'react';
import { Badge, ErrorNote, JsonBlock, Time } from '../components/common';
import { useConsole } from '../console-context';
import { answer, errorMessage } from '../gateway';
import { usePipeStates, type Pipe } from '../pipe-states';
import { href } from '../router';
import { shortId, stateTone, type Service } from './pipes';

/** One pipe: its live state, the pipe as the gateway reads it (secrets removed). */
export function PipeDetailPage({ organizationId, serviceId, pipeId }: Service & { pipeId: string }) {
  const { client } = useConsole();
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
  useEffect(() => {
    void read();
  }, [read]);

  const name = pipe?.name ?? live?.name ?? pipeId;
  const state = live?.state ?? pipe?.state;
  return (
    <>
      <p>
        <a href={href('pipes', organizationId, serviceId)}>← Pipes of service {shortId(serviceId)}</a>
      </p>
      <h1>Pipe {name}</h1>
      <ErrorNote message={problem} />
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
