import { useCallback, useState, type FormEvent } from 'react';
import type { components } from '../../../../clients/typescript/src';
import { Badge, ConfirmButton, ErrorNote, TableHead, Time } from '../../components/common';
import { PipeLink, pipeName } from '../../components/pipe-link';
import { RefusalNote } from '../../components/refused-fields';
import { useConsole } from '../../console-context';
import { answer, errorMessage } from '../../gateway';
import { href, navigate } from '../../router';
import { useData } from '../../use-data';
import { PropagationOutcomes, type Propagation } from './propagation';
import { clearSecrets, fieldsOf, KIND_LABEL, PasswordField, type Credential } from './fields';

type RotateBody = components['schemas']['RotateCredentialDto'];
type SecretUse = components['schemas']['SecretUseItemView'];

const ROTATE_LABELS: Record<string, string> = {
  value: 'New value',
  keyId: 'New key id',
  keySecret: 'New key secret',
  token: 'New token',
};

/** The pipes of `uses`, each once, in words for a question or a message. */
function pipesIn(uses: SecretUse[]): string {
  const pipes = [...new Map(uses.map((use) => [use.pipeId, pipeName(use)])).values()];
  return pipes.length === 1 ? pipes[0] : `${pipes.length} pipes (${pipes.join(', ')})`;
}

/** A rotation's body from the form, by the credential's kind. */
function rotation(credential: Credential, read: (name: string) => string): RotateBody {
  if (credential.kind === 'pipes')
    return { keySecret: read('keySecret'), ...(read('keyId') ? { keyId: read('keyId') } : {}) };
  if (credential.kind === 'dashboards') return { token: read('token') };
  const fields = credential.fields ?? [];
  return {
    value:
      fields.length === 0
        ? read('value')
        : Object.fromEntries(fields.map((field) => [field, read(`field:${field}`)])),
  };
}

/** One credential: its metadata, where it is used, rotating it, deleting it. */
export function CredentialDetail({
  credential,
  onChanged,
  onDeleted,
}: {
  credential: Credential;
  onChanged: () => void;
  onDeleted: (message: string) => void;
}) {
  const { client, can } = useConsole();
  const usage = useData(
    useCallback(
      (signal: AbortSignal) =>
        answer(
          client.GET('/v1/credentials/{id}/usage', { params: { path: { id: credential.id } }, signal }),
        ).then((page) => page.items),
      [client, credential.id],
    ),
  );
  const uses = usage.value;
  const [problem, setProblem] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  const [propagation, setPropagation] = useState<Propagation[] | null>(null);
  const [rotated, setRotated] = useState<number | null>(null);

  const rotate = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const form = event.currentTarget;
    const read = fieldsOf(form);
    const propagate = read('propagate') === 'on';
    const body = rotation(credential, read);
    // The new value leaves the page with this request and is not kept anywhere.
    clearSecrets(form);
    void (async () => {
      setRefusal(null);
      try {
        const result = await answer(
          client.POST('/v1/credentials/{id}/rotate', {
            params: { path: { id: credential.id }, query: propagate ? { propagate: true } : {} },
            body,
          }),
        );
        form.reset();
        setRotated(result.version);
        setPropagation(result.propagation ?? null);
        onChanged();
      } catch (error) {
        setRefusal(error);
      }
    })();
  };

  const remove = (): void => {
    void (async () => {
      setProblem(null);
      try {
        // The pipes that use it were named in the question: deleting it anyway is what was asked.
        const inUse = uses !== null && uses.length > 0;
        await answer(
          client.DELETE('/v1/credentials/{id}', {
            params: { path: { id: credential.id }, query: inUse ? { force: true } : {} },
          }),
        );
        onDeleted(
          uses && uses.length > 0
            ? `${credential.name} was deleted. It was used by ${pipesIn(uses)}: a change to them that needs it will be refused.`
            : `${credential.name} was deleted.`,
        );
        navigate(href('vault'));
      } catch (error) {
        setProblem(errorMessage(error));
        // Refused as in use by pipes not yet listed here: list them for the next question.
        usage.retry();
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
        <dt>Refused upstream</dt>
        <dd>
          {credential.rejectedAt ? (
            <>
              <Badge text={`refused (${credential.rejectedStatus ?? '?'})`} tone="bad" /> at{' '}
              <Time at={credential.rejectedAt} />: rotate it.
            </>
          ) : (
            'no: the upstream has not refused it since it was last changed'
          )}
        </dd>
      </dl>
      <ErrorNote message={problem} />
      <h3>Where it is used</h3>
      <ErrorNote message={usage.problem} onRetry={usage.retry} />
      {uses === null ? (
        !usage.problem && <p role="status">Loading…</p>
      ) : uses.length === 0 ? (
        <p className="empty">No pipe created through the gateway refers to it.</p>
      ) : (
        <table className="data">
          <TableHead columns={['Pipe', 'Where in the pipe', 'Since']} />
          <tbody>
            {uses.map((use) => (
              <tr key={`${use.pipeId} ${use.path}`}>
                <td className="wrap">
                  <PipeLink pipe={use} />
                </td>
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
        <form
          onSubmit={rotate}
          onInput={() => setRotated(null)}
          className="stack"
          aria-labelledby="rotate-title"
        >
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
      <RefusalNote
        error={refusal}
        id="rotate-refused"
        labels={{
          ...ROTATE_LABELS,
          ...Object.fromEntries((credential.fields ?? []).map((field) => [`value.${field}`, `New ${field}`])),
        }}
      />
      {rotated !== null && (
        <p className="verdict good" role="status">
          Rotated: now version {rotated}.
        </p>
      )}
      {propagation && <PropagationOutcomes outcomes={propagation} />}
      {can('CredentialsController_remove') && (
        <p>
          <ConfirmButton
            question={
              uses && uses.length > 0
                ? `Delete ${credential.name}? It is used by ${pipesIn(uses)}: changes to them that need it will be refused.`
                : `Delete ${credential.name}? Calls that need it will fail.`
            }
            onConfirm={remove}
          >
            Delete
          </ConfirmButton>
        </p>
      )}
    </section>
  );
}
