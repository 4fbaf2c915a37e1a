import { useEffect, useState, type FormEvent } from 'react';
import { Badge, ErrorNote, TableHead } from '../components/common';
import { useConsole } from '../console-context';
import { answer, errorMessage } from '../gateway';
import { href } from '../router';
import { usePipeStates, type Pipe } from '../pipe-states';
import { formText } from '../form';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// The service last looked at, kept while the console is open.
let lastService: { organizationId: string; serviceId: string } | null = null;

function stateTone(state: string | undefined): 'good' | 'bad' | 'busy' | 'plain' {
  if (state === 'Running' || state === 'Completed') return 'good';
  if (state === 'Failed' || state === 'InternalError' || state === 'Degraded') return 'bad';
  if (state === 'Stopped' || state === 'Paused') return 'plain';
  return 'busy';
}

/** A service's pipes and their live state; operators start, stop and resync them. */
export function PipesPage() {
  const { client, can } = useConsole();
  const [service, setService] = useState(lastService);
  const [organizations, setOrganizations] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    // The organizations this tenant holds a pipes credential for.
    void answer(client.GET('/v1/credentials', { params: { query: { limit: 200 } } })).then(
      (page) =>
        setOrganizations([
          ...new Set(
            page.items.flatMap((item) =>
              item.kind === 'pipes' && item.organizationId ? [item.organizationId] : [],
            ),
          ),
        ]),
      () => setOrganizations([]),
    );
  }, [client]);

  const choose = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const organizationId = formText(data, 'organizationId');
    const serviceId = formText(data, 'serviceId');
    if (!UUID.test(organizationId) || !UUID.test(serviceId)) {
      setProblem('The organization and the service are both ids like 00000000-0000-4000-8000-000000000000.');
      return;
    }
    setProblem(null);
    lastService = { organizationId, serviceId };
    setService(lastService);
  };

  return (
    <>
      <h1>Pipes</h1>
      <form className="filters" onSubmit={choose} aria-label="Choose a service">
        <label>
          Organization
          <input
            className="id-field"
            name="organizationId"
            list="organizations"
            defaultValue={service?.organizationId ?? organizations[0] ?? ''}
            key={organizations[0] ?? 'none'}
            required
            autoComplete="off"
          />
          <datalist id="organizations">
            {organizations.map((organization) => (
              <option key={organization} value={organization} />
            ))}
          </datalist>
        </label>
        <label>
          Service{' '}
          <input
            className="id-field"
            name="serviceId"
            defaultValue={service?.serviceId ?? ''}
            required
            autoComplete="off"
          />
        </label>
        <div className="actions">
          <button type="submit">Show pipes</button>
        </div>
      </form>
      <ErrorNote message={problem} />
      {service ? (
        <ServicePipes
          key={`${service.organizationId} ${service.serviceId}`}
          {...service}
          canChangeState={can('PipesController_changeState')}
          canReadHistory={can('PipeSpecHistoryController_list')}
        />
      ) : (
        <p className="empty">Choose the organization and service whose pipes you want to watch.</p>
      )}
    </>
  );
}

function ServicePipes({
  organizationId,
  serviceId,
  canChangeState,
  canReadHistory,
}: {
  organizationId: string;
  serviceId: string;
  canChangeState: boolean;
  canReadHistory: boolean;
}) {
  const { client } = useConsole();
  const { pipes, problem, readAt, refresh } = usePipeStates(client, organizationId, serviceId);
  const [commandProblem, setCommandProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);

  const command = (pipe: Pipe, name: 'start' | 'stop' | 'resync'): void => {
    void (async () => {
      setCommandProblem(null);
      try {
        await answer(
          client.PATCH('/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/state', {
            params: { path: { organizationId, serviceId, pipeId: pipe.id! } },
            body: { command: name },
          }),
        );
        setSent(`${name} sent to ${pipe.name ?? pipe.id}.`);
        refresh();
      } catch (error) {
        setCommandProblem(errorMessage(error));
      }
    })();
  };

  return (
    <section aria-labelledby="pipes-title">
      <h2 id="pipes-title">
        Pipes of service {serviceId}{' '}
        {readAt && <span className="muted">(updated {readAt.toLocaleTimeString()}, every few seconds)</span>}
      </h2>
      <ErrorNote message={problem ?? commandProblem} />
      <p className="sr-only" role="status">
        {sent}
      </p>
      {pipes === null ? (
        !problem && <p role="status">Loading pipes…</p>
      ) : pipes.length === 0 ? (
        <p className="empty">This service has no pipes.</p>
      ) : (
        <table className="data">
          <TableHead columns={['Name', 'State', 'Id', canChangeState && 'Commands']} />
          <tbody>
            {pipes.map((pipe) => (
              <tr key={pipe.id} data-pipe={pipe.id}>
                <td>{pipe.name}</td>
                <td>
                  <Badge text={pipe.state ?? 'Unknown'} tone={stateTone(pipe.state)} />
                </td>
                <td className="wrap">
                  {pipe.id}
                  {canReadHistory && (
                    <>
                      {' '}
                      <a href={href('history')} className="small">
                        spec history
                      </a>
                    </>
                  )}
                </td>
                {canChangeState && (
                  <td className="commands">
                    {(['start', 'stop', 'resync'] as const).map((name) => (
                      <button
                        key={name}
                        type="button"
                        className="secondary small"
                        onClick={() => command(pipe, name)}
                        aria-label={`${name} ${pipe.name ?? pipe.id}`}
                      >
                        {name}
                      </button>
                    ))}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
