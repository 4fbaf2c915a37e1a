import { useCallback, useState, type FormEvent } from 'react';
import type { components } from '../../../../clients/typescript/src';
import { ErrorNote, JsonBlock } from '../../components/common';
import { RefusalNote } from '../../components/refused-fields';
import { useConsole } from '../../console-context';
import { answer } from '../../gateway';
import { useData } from '../../use-data';
import type { PipePath } from '../pipe-detail';

type SettingsBody = components['schemas']['PipeSettingsBody'];

/** The pipe's advanced settings as the service names them; replaced whole (PUT) by operators. */
export function PipeSettings({ path, canEdit }: { path: PipePath; canEdit: boolean }) {
  const { client } = useConsole();
  const { organizationId, serviceId, pipeId } = path;
  const settings = useData(
    useCallback(
      (signal: AbortSignal) =>
        answer(
          client.GET('/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings', {
            params: { path: { organizationId, serviceId, pipeId } },
            signal,
          }),
        ).then((read) => read.result),
      [client, organizationId, serviceId, pipeId],
    ),
  );
  // What the person typed; null until they type, the settings read are shown until then.
  const [typed, setTyped] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  const [saved, setSaved] = useState<Date | null>(null);
  const text = typed ?? (settings.value ? JSON.stringify(settings.value, null, 2) : '');

  const save = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    let body: SettingsBody;
    try {
      body = JSON.parse(text) as SettingsBody;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('not an object');
    } catch {
      setRefusal(
        new Error(
          'The settings must be a JSON object, like {"streaming_max_insert_wait_ms": 1000}. Nothing was sent.',
        ),
      );
      return;
    }
    void (async () => {
      setRefusal(null);
      setSaved(null);
      try {
        const replaced = await answer(
          client.PUT('/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings', {
            params: { path: { organizationId, serviceId, pipeId } },
            body,
          }),
        );
        settings.update(() => replaced.result);
        setTyped(null);
        setSaved(new Date());
      } catch (error) {
        setRefusal(error);
      }
    })();
  };

  return (
    <section aria-labelledby="pipe-settings-title">
      <h2 id="pipe-settings-title">Settings</h2>
      <ErrorNote message={settings.problem} onRetry={settings.retry} />
      {settings.value === null ? (
        !settings.problem && <p role="status">Reading the settings…</p>
      ) : canEdit ? (
        <form className="spec-form" onSubmit={save} aria-label="Change the settings">
          <label className="spec-label" htmlFor="pipe-settings">
            Settings (JSON)
          </label>
          <p className="muted help" id="pipe-settings-help">
            The object sent replaces the pipe's settings whole: a setting left out is no longer set.
          </p>
          <textarea
            id="pipe-settings"
            className="spec-editor short"
            value={text}
            onChange={(event) => {
              setTyped(event.target.value);
              setSaved(null);
            }}
            spellCheck={false}
            rows={8}
            aria-describedby={refusal !== null ? 'pipe-settings-help settings-refused' : 'pipe-settings-help'}
            aria-invalid={refusal !== null ? true : undefined}
          />
          <div className="actions">
            <button type="submit">Save the settings</button>
          </div>
          {saved && (
            <p className="verdict good" role="status">
              Settings saved at {saved.toLocaleTimeString()}.
            </p>
          )}
          <RefusalNote error={refusal} id="settings-refused" />
        </form>
      ) : (
        <>
          {Object.keys(settings.value).length === 0 && (
            <p className="empty">No setting is set: the service's defaults apply.</p>
          )}
          <JsonBlock value={settings.value} label="The pipe's settings" />
        </>
      )}
    </section>
  );
}
