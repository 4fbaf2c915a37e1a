import { useCallback, useRef, useState, type FormEvent } from 'react';
import type { components } from '../../../clients/typescript/src';
import { RefusalNote } from '../components/refused-fields';
import { useConsole } from '../console-context';
import { answer, newIdempotencyKey } from '../gateway';
import { shortId } from '../components/pipe-link';
import { href, navigate } from '../router';
import { useData } from '../use-data';
import type { Service } from './pipes';

type Credential = components['schemas']['CredentialView'];
type PipeCreateBody = components['schemas']['PipeCreateBody'];

/** A kinesis pipe whose AWS keys are the vault secret `secret`: the README's walkthrough pipe. */
function sampleSpec(secret: string): string {
  return JSON.stringify(
    {
      name: 'orders',
      source: {
        kinesis: {
          streamName: 'orders',
          region: 'us-east-1',
          authentication: 'IAM_USER',
          accessKey: { $secret: secret },
        },
      },
      destination: { database: 'default', table: 'orders', columns: [{ name: 'id', type: 'String' }] },
      fieldMappings: [{ sourceField: 'id', destinationField: 'id' }],
    },
    null,
    2,
  );
}

/** The secret the sample refers to: one holding AWS keys if there is one, else the first. */
function sampleSecret(secrets: Credential[]): string {
  const aws = secrets.find((secret) => secret.fields?.includes('accessKeyId'));
  return (aws ?? secrets[0])?.name ?? 'my-aws-keys';
}

/** A problem with the text before it is sent: not JSON, or not an object. */
class SpecError extends Error {}

function parseSpec(text: string): PipeCreateBody {
  let spec: unknown;
  try {
    spec = JSON.parse(text);
  } catch (error) {
    throw new SpecError(
      `The spec is not valid JSON (${error instanceof Error ? error.message : String(error)}). Nothing was sent.`,
    );
  }
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec))
    throw new SpecError('The spec must be a JSON object ({ … }). Nothing was sent.');
  return spec as PipeCreateBody;
}

/**
 * A pipe's create spec, typed as JSON, with vault secrets put in as references: the gateway swaps
 * each for its value on the way to the pipes API and keeps the spec, references and all.
 */
export function CreatePipePage({ organizationId, serviceId }: Service) {
  const { client } = useConsole();
  // A viewer of pipes without the vault's list still gets the sample, with no secret to refer to.
  const secrets = useData(
    useCallback(
      (signal: AbortSignal) =>
        answer(client.GET('/v1/credentials', { params: { query: { limit: 200 } }, signal })).then(
          (page) => page.items.filter((item) => item.kind === 'secret'),
          () => [] as Credential[],
        ),
      [client],
    ),
  ).value;
  // What the person typed; null until they type, the sample is shown until then.
  const [typed, setSpec] = useState<string | null>(null);
  const spec = typed ?? (secrets === null ? null : sampleSpec(sampleSecret(secrets)));
  const [pickedSecret, setChosenSecret] = useState<string | null>(null);
  const chosenSecret = pickedSecret ?? secrets?.[0]?.name ?? '';
  const [refusal, setRefusal] = useState<unknown>(null);
  const [sending, setSending] = useState(false);
  const editor = useRef<HTMLTextAreaElement>(null);
  // One key per spec sent: the same text sent again (after a lost answer) reuses it, so the
  // gateway answers the first answer again rather than creating a second pipe.
  const sent = useRef<{ text: string; key: string } | null>(null);

  const insertReference = (): void => {
    const area = editor.current;
    if (!area || spec === null || chosenSecret === '') return;
    const reference = JSON.stringify({ $secret: chosenSecret });
    const { selectionStart, selectionEnd } = area;
    setSpec(spec.slice(0, selectionStart) + reference + spec.slice(selectionEnd));
    // The caret after the reference, as after typing it.
    const caret = selectionStart + reference.length;
    window.requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(caret, caret);
    });
  };

  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (spec === null || sending) return;
    let body: PipeCreateBody;
    try {
      body = parseSpec(spec);
    } catch (error) {
      setRefusal(error);
      return;
    }
    if (sent.current?.text !== spec) sent.current = { text: spec, key: newIdempotencyKey() };
    const idempotencyKey = sent.current.key;
    void (async () => {
      setRefusal(null);
      setSending(true);
      try {
        const created = await answer(
          client.POST('/v1/organizations/{organizationId}/services/{serviceId}/pipes', {
            params: { path: { organizationId, serviceId }, header: { 'Idempotency-Key': idempotencyKey } },
            body,
          }),
        );
        const pipeId = created.result.id;
        navigate(
          pipeId
            ? href('pipes', organizationId, serviceId, pipeId)
            : href('pipes', organizationId, serviceId),
        );
      } catch (error) {
        setRefusal(error);
      } finally {
        setSending(false);
      }
    })();
  };

  return (
    <>
      <p>
        <a href={href('pipes', organizationId, serviceId)}>← Pipes of service {shortId(serviceId)}</a>
      </p>
      <h1>Create a pipe</h1>
      <p>
        In service <span className="wrap">{serviceId}</span> of organization{' '}
        <span className="wrap">{organizationId}</span>. Write the pipe's spec as the pipes API takes it. Where
        it takes a secret, put a reference to a vault secret, <code>{'{"$secret": "<name>"}'}</code>: the
        gateway puts the stored value in for the pipes API only, and keeps the spec as you wrote it.
      </p>
      <form className="spec-form" onSubmit={submit} aria-label="Create a pipe" aria-busy={sending}>
        <div className="spec-tools" role="group" aria-label="References to the vault">
          {secrets !== null && secrets.length > 0 ? (
            <>
              <label>
                Vault secret{' '}
                <select value={chosenSecret} onChange={(event) => setChosenSecret(event.target.value)}>
                  {secrets.map((secret) => (
                    <option key={secret.id} value={secret.name}>
                      {secret.name}
                      {secret.fields?.length ? ` (${secret.fields.join(', ')})` : ''}
                    </option>
                  ))}
                </select>
              </label>
              <button type="button" className="secondary" onClick={insertReference}>
                Insert a reference at the cursor
              </button>
              <span className="muted">Select a value in the spec first to replace it.</span>
            </>
          ) : (
            secrets !== null && (
              <span className="muted">
                The vault holds no secret to refer to: an admin adds one in the{' '}
                <a href={href('vault')}>Vault</a>.
              </span>
            )
          )}
        </div>
        <label className="spec-label" htmlFor="pipe-spec">
          Spec (JSON)
        </label>
        <textarea
          id="pipe-spec"
          ref={editor}
          className="spec-editor"
          value={spec ?? ''}
          onChange={(event) => setSpec(event.target.value)}
          spellCheck={false}
          rows={22}
          disabled={spec === null}
          aria-invalid={refusal !== null ? true : undefined}
          aria-describedby={refusal !== null ? 'create-refused' : undefined}
        />
        <div className="actions">
          <button type="submit" disabled={spec === null || sending}>
            {sending ? 'Creating…' : 'Create the pipe'}
          </button>
          <a href={href('pipes', organizationId, serviceId)}>Cancel</a>
        </div>
      </form>
      <RefusalNote error={refusal} id="create-refused" />
    </>
  );
}
