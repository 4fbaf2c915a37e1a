import { useEffect, useState, type FormEvent } from 'react';
import { Badge, ErrorNote, TableHead } from '../components/common';
import { useConsole } from '../console-context';
import { answer, errorMessage } from '../gateway';
import { href, navigate } from '../router';
import { usePipeStates, type Pipe } from '../pipe-states';
import { CreatePipePage } from './pipe-create';
import { PipeDetailPage } from './pipe-detail';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_EXAMPLE = '00000000-0000-4000-8000-000000000000';

export interface Service {
  organizationId: string;
  serviceId: string;
}

// The service last looked at in each tenant, kept while the console is open (a reload signs out).
const lastService = new Map<string, Service>();

export function stateTone(state: string | undefined): 'good' | 'bad' | 'busy' | 'plain' {
  if (state === 'Running' || state === 'Completed') return 'good';
  if (state === 'Failed' || state === 'InternalError' || state === 'Degraded') return 'bad';
  if (state === 'Stopped' || state === 'Paused') return 'plain';
  return 'busy';
}

/** A short form of a UUID for places where the whole is in a title or next to it. */
export function shortId(id: string): string {
  return id.length > 13 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}

/**
 * `#/pipes`, `#/pipes/<organization>/<service>`, `…/new` and `…/<pipe>`: a service's pipes and
 * their live state, creating one, and one pipe's detail.
 */
export function PipesPage({ path }: { path: string[] }) {
  const { tenant } = useConsole();
  const [organizationId, serviceId, pipeId] = path;
  const named = organizationId !== undefined && serviceId !== undefined;
  const valid = named && UUID.test(organizationId) && UUID.test(serviceId);
  const service = valid ? { organizationId, serviceId } : named ? null : (lastService.get(tenant.id) ?? null);

  useEffect(() => {
    if (valid) lastService.set(tenant.id, { organizationId, serviceId });
  }, [valid, tenant.id, organizationId, serviceId]);

  if (service && named && pipeId === 'new') return <CreatePipePage {...service} />;
  if (service && named && pipeId !== undefined) return <PipeDetailPage {...service} pipeId={pipeId} />;
  return (
    <>
      <h1>Pipes</h1>
      <ServiceChooser
        chosen={service}
        problem={
          named && !valid ? 'This address does not name an organization and a service by their ids.' : null
        }
      />
      {service ? (
        <ServicePipes key={`${service.organizationId} ${service.serviceId}`} {...service} />
      ) : (
        <p className="empty">Choose the organization and service whose pipes you want to see.</p>
      )}
    </>
  );
}

interface KnownService extends Service {
  specs: number;
  lastName: string;
}

/**
 * The organization (one per pipes credential of the tenant) and the service: typed, or one the
 * spec history has seen pipes created in.
 */
function ServiceChooser({ chosen, problem }: { chosen: Service | null; problem: string | null }) {
  const { client, can } = useConsole();
  const [organizations, setOrganizations] = useState<{ id: string; names: string[] }[] | null>(null);
  const [known, setKnown] = useState<KnownService[]>([]);
  const [organizationId, setOrganizationId] = useState(chosen?.organizationId ?? '');
  const [serviceText, setServiceText] = useState(chosen?.serviceId ?? '');
  const [refused, setRefused] = useState<string | null>(null);
  // Another service chosen (by a link, or the address): the form shows it, without the last refusal.
  const chosenKey = chosen ? `${chosen.organizationId} ${chosen.serviceId}` : '';
  const [shownKey, setShownKey] = useState(chosenKey);
  if (shownKey !== chosenKey) {
    setShownKey(chosenKey);
    setRefused(null);
    if (chosen) {
      setOrganizationId(chosen.organizationId);
      setServiceText(chosen.serviceId);
    }
  }
  const [loadProblem, setLoadProblem] = useState<string | null>(null);
  const canReadHistory = can('PipeSpecHistoryController_list');

  useEffect(() => {
    void answer(client.GET('/v1/credentials', { params: { query: { limit: 200 } } })).then(
      (page) => {
        const byOrganization = new Map<string, string[]>();
        for (const item of page.items) {
          if (item.kind !== 'pipes' || !item.organizationId) continue;
          byOrganization.set(item.organizationId, [
            ...(byOrganization.get(item.organizationId) ?? []),
            item.name,
          ]);
        }
        const found = [...byOrganization].map(([id, names]) => ({ id, names }));
        setOrganizations(found);
        setOrganizationId((current) => current || (found[0]?.id ?? ''));
      },
      (error: unknown) => {
        setOrganizations([]);
        setLoadProblem(errorMessage(error));
      },
    );
  }, [client]);

  useEffect(() => {
    if (!canReadHistory) return;
    // The newest specs name the services in use; enough to offer them, without reading it all.
    void answer(client.GET('/v1/history/pipe-specs', { params: { query: { limit: 200 } } })).then(
      (page) => {
        const services = new Map<string, KnownService>();
        for (const record of page.items) {
          const key = `${record.organizationId} ${record.serviceId}`;
          const seen = services.get(key);
          if (seen) seen.specs += 1;
          else {
            const name = (record.spec as { name?: unknown }).name;
            services.set(key, {
              organizationId: record.organizationId,
              serviceId: record.serviceId,
              specs: 1,
              lastName: typeof name === 'string' ? name : '',
            });
          }
        }
        setKnown([...services.values()]);
      },
      () => setKnown([]),
    );
  }, [client, canReadHistory]);

  const choose = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const organization = organizationId.trim();
    const service = serviceText.trim();
    if (!UUID.test(organization)) {
      setRefused(`Choose an organization: its id is a UUID, like ${UUID_EXAMPLE}.`);
      return;
    }
    if (!UUID.test(service)) {
      setRefused(
        service === ''
          ? 'Type the service id, or pick one of the services below.'
          : `"${service}" is not a service id: a service id is a UUID, 36 characters like ${UUID_EXAMPLE}.`,
      );
      return;
    }
    setRefused(null);
    navigate(href('pipes', organization, service));
  };

  const services = known.filter((service) => service.organizationId === organizationId);
  return (
    <>
      <form className="filters" onSubmit={choose} aria-label="Choose a service" noValidate>
        {organizations === null ? (
          <label>
            Organization
            <select name="organizationId" disabled>
              <option>Loading the organizations…</option>
            </select>
          </label>
        ) : organizations.length > 0 ? (
          <label>
            Organization
            <select
              name="organizationId"
              value={organizationId}
              onChange={(event) => setOrganizationId(event.target.value)}
            >
              {organizations.map((organization) => (
                <option key={organization.id} value={organization.id}>
                  {organization.id} ({organization.names.join(', ')})
                </option>
              ))}
            </select>
          </label>
        ) : (
          <label>
            Organization id
            <input
              className="id-field"
              name="organizationId"
              value={organizationId}
              onChange={(event) => setOrganizationId(event.target.value)}
              autoComplete="off"
              placeholder={UUID_EXAMPLE}
            />
          </label>
        )}
        <label>
          Service id
          <input
            className="id-field"
            name="serviceId"
            value={serviceText}
            onChange={(event) => setServiceText(event.target.value)}
            autoComplete="off"
            placeholder={UUID_EXAMPLE}
            aria-invalid={refused !== null && refused.includes('service') ? true : undefined}
            aria-describedby={refused ? 'service-refused' : undefined}
          />
        </label>
        <div className="actions">
          <button type="submit">Show pipes</button>
        </div>
      </form>
      {refused && (
        <p className="error" role="alert" id="service-refused">
          {refused}
        </p>
      )}
      <ErrorNote message={problem ?? loadProblem} />
      {organizations !== null && organizations.length === 0 && !loadProblem && (
        <p className="notice">
          This tenant has no pipes credential yet, so no organization to choose: an admin adds one in the{' '}
          <a href={href('vault')}>Vault</a>, with the organization's id.
        </p>
      )}
      {services.length > 0 && (
        <nav aria-label="Services in the spec history" className="known-services">
          <h2>Services pipes were created in</h2>
          <ul>
            {services.map((service) => (
              <li key={service.serviceId}>
                <a
                  href={href('pipes', service.organizationId, service.serviceId)}
                  aria-current={service.serviceId === chosen?.serviceId ? 'page' : undefined}
                >
                  {service.serviceId}
                </a>{' '}
                <span className="muted">
                  {service.specs === 1 ? '1 spec' : `${service.specs} specs`}
                  {service.lastName && `, newest "${service.lastName}"`}
                </span>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </>
  );
}

function ServicePipes({ organizationId, serviceId }: Service) {
  const { client, can } = useConsole();
  const { pipes, problem, readAt, refresh } = usePipeStates(client, organizationId, serviceId);
  const [commandProblem, setCommandProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const canChangeState = can('PipesController_changeState');

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
      <div className="section-head">
        <h2 id="pipes-title">
          Pipes of service {serviceId}{' '}
          {readAt && (
            <span className="muted">(updated {readAt.toLocaleTimeString()}, every few seconds)</span>
          )}
        </h2>
        {can('PipesController_create') && (
          <a className="button-link" href={href('pipes', organizationId, serviceId, 'new')}>
            Create a pipe
          </a>
        )}
      </div>
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
                <td>
                  <a href={href('pipes', organizationId, serviceId, pipe.id)}>{pipe.name ?? pipe.id}</a>
                </td>
                <td>
                  <Badge text={pipe.state ?? 'Unknown'} tone={stateTone(pipe.state)} />
                </td>
                <td className="wrap">{pipe.id}</td>
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
