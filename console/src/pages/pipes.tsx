import { useEffect, useState } from 'react';
import { Badge, ErrorNote, TableHead } from '../components/common';
import { useConsole } from '../console-context';
import { href, navigate } from '../router';
import { usePipeStates } from '../pipe-states';
import { CreatePipePage } from './pipe-create';
import { PipeDetailPage } from './pipe-detail';
import { PipeCommandButtons, usePipeCommands } from './pipes/pipe-commands';
import { ServiceChooser, UUID } from './pipes/service-chooser';

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
  // "Show pipes" for the service shown reads its pipes again.
  const [round, setRound] = useState(0);

  useEffect(() => {
    if (valid) lastService.set(tenant.id, { organizationId, serviceId });
  }, [valid, tenant.id, organizationId, serviceId]);

  if (service && named && pipeId === 'new') return <CreatePipePage {...service} />;
  if (service && named && pipeId !== undefined) return <PipeDetailPage {...service} pipeId={pipeId} />;
  const choose = (next: Service): void => {
    const address = href('pipes', next.organizationId, next.serviceId);
    if (window.location.hash === address) setRound((count) => count + 1);
    else navigate(address);
  };
  return (
    <>
      <h1>Pipes</h1>
      <ServiceChooser
        chosen={service}
        onChoose={choose}
        problem={
          named && !valid ? 'This address does not name an organization and a service by their ids.' : null
        }
      />
      {service ? (
        <ServicePipes key={`${service.organizationId} ${service.serviceId} ${round}`} {...service} />
      ) : (
        <p className="empty">Choose the organization and service whose pipes you want to see.</p>
      )}
    </>
  );
}

function ServicePipes({ organizationId, serviceId }: Service) {
  const { client, can } = useConsole();
  const { pipes, problem, readAt, refresh } = usePipeStates(client, organizationId, serviceId);
  const commands = usePipeCommands({ organizationId, serviceId }, refresh);
  const canChangeState = can('PipesController_changeState');

  return (
    <section aria-labelledby="pipes-title">
      <div className="section-head">
        <h2 id="pipes-title">
          Pipes of service {serviceId}{' '}
          {readAt && <span className="muted">(updated {readAt.toLocaleTimeString()}, as they change)</span>}
        </h2>
        {can('PipesController_create') && (
          <a className="button-link" href={href('pipes', organizationId, serviceId, 'new')}>
            Create a pipe
          </a>
        )}
      </div>
      <ErrorNote message={problem} onRetry={refresh} />
      <ErrorNote message={commands.problem} />
      <p className="sr-only" role="status">
        {commands.sent}
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
                    <PipeCommandButtons pipe={pipe} onCommand={commands.send} small />
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
