import { useCallback, useState, type FormEvent } from 'react';
import { ErrorNote } from '../../components/common';
import { useConsole } from '../../console-context';
import { answer } from '../../gateway';
import { href } from '../../router';
import { useData } from '../../use-data';
import type { Service } from '../pipes';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_EXAMPLE = '00000000-0000-4000-8000-000000000000';

interface KnownService extends Service {
  specs: number;
  lastName: string;
}

/** The services the newest specs were created in: enough to offer them, without reading it all. */
function knownServices(
  records: { organizationId: string; serviceId: string; spec: unknown }[],
): KnownService[] {
  const services = new Map<string, KnownService>();
  for (const record of records) {
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
  return [...services.values()];
}

/**
 * The organization (one per pipes credential of the tenant) and the service: typed, or one the
 * spec history has seen pipes created in.
 */
export function ServiceChooser({
  chosen,
  problem,
  onChoose,
}: {
  chosen: Service | null;
  problem: string | null;
  onChoose: (service: Service) => void;
}) {
  const { client, can } = useConsole();
  const organizations = useData(
    useCallback(
      async (signal: AbortSignal) => {
        const page = await answer(
          client.GET('/v1/credentials', { params: { query: { limit: 200 } }, signal }),
        );
        const byOrganization = new Map<string, string[]>();
        for (const item of page.items) {
          if (item.kind !== 'pipes' || !item.organizationId) continue;
          byOrganization.set(item.organizationId, [
            ...(byOrganization.get(item.organizationId) ?? []),
            item.name,
          ]);
        }
        return [...byOrganization].map(([id, names]) => ({ id, names }));
      },
      [client],
    ),
  );
  const canReadHistory = can('PipeSpecHistoryController_list');
  const readHistory = useCallback(
    (signal: AbortSignal) =>
      answer(client.GET('/v1/history/pipe-specs', { params: { query: { limit: 200 } }, signal })).then(
        (page) => knownServices(page.items),
      ),
    [client],
  );
  const known = useData(canReadHistory ? readHistory : null).value ?? [];
  const [typedOrganization, setOrganizationId] = useState(chosen?.organizationId ?? '');
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
  const found = organizations.value;
  const organizationId = typedOrganization || (found?.[0]?.id ?? '');

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
    onChoose({ organizationId: organization, serviceId: service });
  };

  const services = known.filter((service) => service.organizationId === organizationId);
  const loadFailed = organizations.problem !== null;
  return (
    <>
      <form className="filters" onSubmit={choose} aria-label="Choose a service" noValidate>
        {found === null && !loadFailed ? (
          <label>
            Organization
            <select name="organizationId" disabled>
              <option>Loading the organizations…</option>
            </select>
          </label>
        ) : found !== null && found.length > 0 ? (
          <label>
            Organization
            <select
              name="organizationId"
              value={organizationId}
              onChange={(event) => setOrganizationId(event.target.value)}
            >
              {found.map((organization) => (
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
      <ErrorNote message={problem} />
      <ErrorNote message={organizations.problem} onRetry={organizations.retry} />
      {found !== null && found.length === 0 && (
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
