import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { components } from '../../../clients/typescript/src';
import { Badge, ConfirmButton, ErrorNote, Time, TableHead } from '../components/common';
import { useConsole } from '../console-context';
import { answer, errorMessage } from '../gateway';
import { href } from '../router';
import { formText } from '../form';

type Credential = components['schemas']['CredentialView'];
type CreateBody = components['schemas']['CreateCredentialDto'];
type RotateBody = components['schemas']['RotateCredentialDto'];
type Propagation = components['schemas']['PropagationOutcomeView'];
type SecretUse = components['schemas']['SecretUseItemView'];

const KIND_LABEL: Record<Credential['kind'], string> = {
  secret: 'Secret',
  pipes: 'Pipes API key',
  dashboards: 'Dashboards token',
};

/** The form's text fields, trimmed; password fields are read the same way and never kept. */
function fieldsOf(form: HTMLFormElement): (name: string) => string {
  const data = new FormData(form);
  return (name) => formText(data, name);
}

/** A secret's value from the form: one string, or named fields (`fieldName-N` and `fieldValue-N`). */
function secretValue(read: (name: string) => string, fieldCount: number): string | Record<string, string> {
  if (fieldCount === 0) return read('value');
  const value: Record<string, string> = {};
  for (let index = 0; index < fieldCount; index++) {
    const name = read(`fieldName-${index}`);
    if (name !== '') value[name] = read(`fieldValue-${index}`);
  }
  return value;
}

/** Credentials and secrets with their metadata, where each is used; admins add, rotate and delete. */
export function VaultPage({ credentialId }: { credentialId: string | null }) {
  const { client, can } = useConsole();
  const [credentials, setCredentials] = useState<Credential[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setCredentials(
        (await answer(client.GET('/v1/credentials', { params: { query: { limit: 200 } } }))).items,
      );
    } catch (error) {
      setProblem(errorMessage(error));
    }
  }, [client]);
  useEffect(() => {
    void load();
  }, [load]);

  const selected = credentials?.find((credential) => credential.id === credentialId) ?? null;
  return (
    <>
      <h1>Vault</h1>
      <p>
        Upstream credentials and secrets of this tenant. Values are never shown: only a hint of the last
        characters of a key id or token.
      </p>
      <ErrorNote message={problem} />
      {credentials === null ? (
        !problem && <p role="status">Loading…</p>
      ) : credentials.length === 0 ? (
        <p className="empty">The vault is empty.</p>
      ) : (
        <table className="data">
          <TableHead
            columns={['Name', 'Kind', 'Hint / fields', 'Version', 'Created', 'Last used', 'Refused upstream']}
          />
          <tbody>
            {credentials.map((credential) => (
              <tr key={credential.id} className={credential.id === credentialId ? 'selected' : undefined}>
                <td>
                  <a
                    href={href('vault', credential.id)}
                    aria-current={credential.id === credentialId ? 'true' : undefined}
                  >
                    {credential.name}
                  </a>
                </td>
                <td>{KIND_LABEL[credential.kind]}</td>
                <td>{credential.fields?.join(', ') || (credential.hint ? `…${credential.hint}` : '—')}</td>
                <td>{credential.version}</td>
                <td>
                  <Time at={credential.createdAt} />
                </td>
                <td>
                  <Time at={credential.lastUsedAt} />
                </td>
                <td>
                  {credential.rejectedAt ? (
                    <Badge text={`refused (${credential.rejectedStatus ?? '?'})`} tone="bad" />
                  ) : (
                    <span className="muted">no</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {selected && <CredentialDetail key={selected.id} credential={selected} onChanged={() => void load()} />}
      {credentialId !== null && credentials !== null && !selected && (
        <p className="empty">This credential no longer exists.</p>
      )}
      {can('CredentialsController_create') && <CreateCredential onCreated={() => void load()} />}
    </>
  );
}

function CredentialDetail({ credential, onChanged }: { credential: Credential; onChanged: () => void }) {
  const { client, can } = useConsole();
  const [uses, setUses] = useState<SecretUse[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [propagation, setPropagation] = useState<Propagation[] | null>(null);
  const [rotated, setRotated] = useState<number | null>(null);

  useEffect(() => {
    void answer(client.GET('/v1/credentials/{id}/usage', { params: { path: { id: credential.id } } })).then(
      (page) => setUses(page.items),
      (error: unknown) => setProblem(errorMessage(error)),
    );
  }, [client, credential.id]);

  const rotate = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const form = event.currentTarget;
    const read = fieldsOf(form);
    const propagate = read('propagate') === 'on';
    let body: RotateBody;
    if (credential.kind === 'secret') {
      const fields = credential.fields ?? [];
      body = {
        value:
          fields.length === 0
            ? read('value')
            : Object.fromEntries(fields.map((field) => [field, read(`field:${field}`)])),
      };
    } else if (credential.kind === 'pipes') {
      body = { keySecret: read('keySecret'), ...(read('keyId') ? { keyId: read('keyId') } : {}) };
    } else {
      body = { token: read('token') };
    }
    // The new value leaves the page with this request and is not kept anywhere.
    form.reset();
    void (async () => {
      setProblem(null);
      try {
        const result = await answer(
          client.POST('/v1/credentials/{id}/rotate', {
            params: { path: { id: credential.id }, query: propagate ? { propagate: true } : {} },
            body,
          }),
        );
        setRotated(result.version);
        setPropagation(result.propagation ?? null);
        onChanged();
      } catch (error) {
        setProblem(errorMessage(error));
      }
    })();
  };

  const remove = (): void => {
    void (async () => {
      try {
        await answer(client.DELETE('/v1/credentials/{id}', { params: { path: { id: credential.id } } }));
        window.location.hash = href('vault');
        onChanged();
      } catch (error) {
        setProblem(errorMessage(error));
      }
    })();
  };

  return (
    <section aria-labelledby="credential-title" className="panel">
      <h2 id="credential-title">
        {credential.name} <span className="muted">({KIND_LABEL[credential.kind]})</span>
      </h2>
      <dl>
        <dt>Id</dt>
        <dd className="wrap">{credential.id}</dd>
        {credential.organizationId && (
          <>
            <dt>Organization</dt>
            <dd className="wrap">{credential.organizationId}</dd>
          </>
        )}
        {credential.baseUrl && (
          <>
            <dt>Base URL</dt>
            <dd className="wrap">{credential.baseUrl}</dd>
          </>
        )}
        <dt>Updated</dt>
        <dd>
          <Time at={credential.updatedAt} /> (version {credential.version})
        </dd>
      </dl>
      <ErrorNote message={problem} />
      <h3>Where it is used</h3>
      {uses === null ? (
        <p role="status">Loading…</p>
      ) : uses.length === 0 ? (
        <p className="empty">No pipe created through the gateway refers to it.</p>
      ) : (
        <table className="data">
          <TableHead columns={['Pipe', 'Service', 'Where in the pipe', 'Since']} />
          <tbody>
            {uses.map((use) => (
              <tr key={`${use.pipeId} ${use.path}`}>
                <td className="wrap">{use.pipeId}</td>
                <td className="wrap">{use.serviceId}</td>
                <td>{use.path}</td>
                <td>
                  <Time at={use.since} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {can('CredentialsController_rotate') && (
        <form onSubmit={rotate} className="stack" aria-labelledby="rotate-title">
          <h3 id="rotate-title">Rotate</h3>
          {credential.kind === 'secret' &&
            ((credential.fields ?? []).length === 0 ? (
              <PasswordField name="value" label="New value" />
            ) : (
              credential.fields!.map((field) => (
                <PasswordField key={field} name={`field:${field}`} label={`New ${field}`} />
              ))
            ))}
          {credential.kind === 'pipes' && (
            <>
              <label htmlFor="rotate-keyId">New key id (leave empty to keep it)</label>
              <input id="rotate-keyId" name="keyId" autoComplete="off" />
              <PasswordField name="keySecret" label="New key secret" />
            </>
          )}
          {credential.kind === 'dashboards' && <PasswordField name="token" label="New token" />}
          {credential.kind === 'secret' && (
            <label className="check">
              <input type="checkbox" name="propagate" defaultChecked /> Update the pipes that use it too
            </label>
          )}
          <button type="submit">Rotate {credential.name}</button>
        </form>
      )}
      {rotated !== null && (
        <p className="verdict good" role="status">
          Rotated: now version {rotated}.
        </p>
      )}
      {propagation && <PropagationOutcomes outcomes={propagation} />}
      {can('CredentialsController_remove') && (
        <p>
          <ConfirmButton
            question={`Delete ${credential.name}? Calls that need it will fail.`}
            onConfirm={remove}
          >
            Delete
          </ConfirmButton>
        </p>
      )}
    </section>
  );
}

function PropagationOutcomes({ outcomes }: { outcomes: Propagation[] }) {
  if (outcomes.length === 0)
    return <p className="empty">No pipe uses this secret: there was nothing to update.</p>;
  return (
    <table className="data" aria-label="Pipes updated with the new value">
      <TableHead columns={['Pipe', 'Outcome', 'Places']} />
      <tbody>
        {outcomes.map((outcome) => (
          <tr key={outcome.pipeId}>
            <td className="wrap">{outcome.pipeId}</td>
            <td>
              <Badge
                text={outcome.outcome === 'updated' ? 'updated' : `failed (${outcome.status})`}
                tone={outcome.outcome === 'updated' ? 'good' : 'bad'}
              />
            </td>
            <td>
              {outcome.paths.join(', ')}
              {outcome.notUpdatable.length > 0 &&
                ` (keeps the old value at ${outcome.notUpdatable.join(', ')})`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PasswordField({ name, label }: { name: string; label: string }) {
  const id = `field-${name.replace(/[^A-Za-z0-9-]/g, '-')}`;
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} type="password" autoComplete="new-password" spellCheck={false} required />
    </>
  );
}

function CreateCredential({ onCreated }: { onCreated: () => void }) {
  const { client } = useConsole();
  const [kind, setKind] = useState<Credential['kind']>('secret');
  const [fieldCount, setFieldCount] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);

  const create = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const form = event.currentTarget;
    const read = fieldsOf(form);
    const name = read('name');
    let body: CreateBody;
    if (kind === 'secret') body = { kind, name, value: secretValue(read, fieldCount) };
    else if (kind === 'pipes') {
      body = {
        kind,
        name,
        organizationId: read('organizationId'),
        keyId: read('keyId'),
        keySecret: read('keySecret'),
      };
    } else
      body = { kind, name, token: read('token'), ...(read('baseUrl') ? { baseUrl: read('baseUrl') } : {}) };
    form.reset();
    void (async () => {
      setProblem(null);
      setCreated(null);
      try {
        const credential = await answer(client.POST('/v1/credentials', { body }));
        setCreated(credential.name);
        setFieldCount(0);
        onCreated();
      } catch (error) {
        setProblem(errorMessage(error));
      }
    })();
  };

  return (
    <section aria-labelledby="create-title" className="panel">
      <h2 id="create-title">Add a credential</h2>
      <form onSubmit={create} className="stack">
        <fieldset>
          <legend>Kind</legend>
          {(Object.keys(KIND_LABEL) as Credential['kind'][]).map((option) => (
            <label key={option} className="check">
              <input
                type="radio"
                name="kind"
                value={option}
                checked={kind === option}
                onChange={() => setKind(option)}
              />{' '}
              {KIND_LABEL[option]}
            </label>
          ))}
        </fieldset>
        <label htmlFor="create-name">Name</label>
        <input id="create-name" name="name" required autoComplete="off" />
        {kind === 'secret' &&
          (fieldCount === 0 ? (
            <PasswordField name="value" label="Value" />
          ) : (
            Array.from({ length: fieldCount }, (_, index) => (
              <div key={index} className="pair">
                <label>
                  Field name <input name={`fieldName-${index}`} required autoComplete="off" />
                </label>
                <label>
                  Its value{' '}
                  <input name={`fieldValue-${index}`} type="password" required autoComplete="new-password" />
                </label>
              </div>
            ))
          ))}
        {kind === 'secret' && (
          <button type="button" className="secondary" onClick={() => setFieldCount((count) => count + 1)}>
            {fieldCount === 0 ? 'Use named fields instead (e.g. accessKeyId and secretKey)' : 'Add a field'}
          </button>
        )}
        {kind === 'pipes' && (
          <>
            <label htmlFor="create-org">Organization id</label>
            <input id="create-org" name="organizationId" required autoComplete="off" />
            <label htmlFor="create-keyId">Key id</label>
            <input id="create-keyId" name="keyId" required autoComplete="off" />
            <PasswordField name="keySecret" label="Key secret" />
          </>
        )}
        {kind === 'dashboards' && (
          <>
            <PasswordField name="token" label="Token" />
            <label htmlFor="create-baseUrl">Base URL (self-hosted only)</label>
            <input id="create-baseUrl" name="baseUrl" type="url" autoComplete="off" />
          </>
        )}
        <button type="submit">Add to the vault</button>
      </form>
      <ErrorNote message={problem} />
      {created && (
        <p className="verdict good" role="status">
          {created} is in the vault. Its value will not be shown again.
        </p>
      )}
    </section>
  );
}
