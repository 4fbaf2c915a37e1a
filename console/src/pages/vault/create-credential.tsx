import { useState, type FormEvent } from 'react';
import type { components } from '../../../../clients/typescript/src';
import { RefusalNote } from '../../components/refused-fields';
import { useConsole } from '../../console-context';
import { answer } from '../../gateway';
import { clearSecrets, fieldsOf, KIND_LABEL, PasswordField, type Credential } from './fields';

type CreateBody = components['schemas']['CreateCredentialDto'];

/** The form's labels by the request's field, for a refusal to name what the person sees. */
export const CREATE_LABELS: Record<string, string> = {
  kind: 'Kind',
  name: 'Name',
  value: 'Value',
  organizationId: 'Organization id',
  keyId: 'Key id',
  keySecret: 'Key secret',
  token: 'Token',
  baseUrl: 'Base URL',
};

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

/** Adds a credential or a secret; a refused one keeps what was typed, except its values. */
export function CreateCredential({ onCreated }: { onCreated: () => void }) {
  const { client } = useConsole();
  const [kind, setKind] = useState<Credential['kind']>('secret');
  const [fieldCount, setFieldCount] = useState(0);
  const [refusal, setRefusal] = useState<unknown>(null);
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
    clearSecrets(form);
    void (async () => {
      setRefusal(null);
      setCreated(null);
      try {
        const credential = await answer(client.POST('/v1/credentials', { body }));
        form.reset();
        setCreated(credential.name);
        setFieldCount(0);
        onCreated();
      } catch (error) {
        setRefusal(error);
      }
    })();
  };

  return (
    <section aria-labelledby="create-title" className="panel">
      <h2 id="create-title">Add a credential</h2>
      <form onSubmit={create} onInput={() => setCreated(null)} className="stack">
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
      <RefusalNote error={refusal} id="create-credential-refused" labels={CREATE_LABELS} />
      {created && (
        <p className="verdict good" role="status">
          {created} is in the vault. Its value will not be shown again.
        </p>
      )}
    </section>
  );
}
