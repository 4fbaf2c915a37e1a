import { useState, type FormEvent } from 'react';
import type { components } from '../../../../clients/typescript/src';
import { JsonBlock } from '../../components/common';
import { RefusalNote } from '../../components/refused-fields';
import { useConsole } from '../../console-context';
import { answer, GatewayError } from '../../gateway';

type Dashboard = components['schemas']['Dashboard'];
type DashboardBody = components['schemas']['DashboardBody'];

/**
 * The dashboard's current content; operators edit it as JSON and replace it, with If-Match naming
 * the content they started from, so someone else's change in the meantime is not overwritten.
 */
export function DashboardContent({
  id,
  content,
  etag,
  canEdit,
  onSaved,
  onEdit,
  onReload,
}: {
  id: string;
  content: Dashboard;
  etag: string | null;
  canEdit: boolean;
  onSaved: () => void;
  onEdit: () => void;
  onReload: () => void;
}) {
  const { client } = useConsole();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(() => JSON.stringify(content, null, 2));
  const [refusal, setRefusal] = useState<unknown>(null);
  const [conflict, setConflict] = useState(false);
  const [saving, setSaving] = useState(false);

  const save = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    let body: DashboardBody;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
      body = parsed as DashboardBody;
    } catch {
      setRefusal(new Error('The content must be a JSON object with a name and tiles. Nothing was sent.'));
      return;
    }
    void (async () => {
      setRefusal(null);
      setConflict(false);
      setSaving(true);
      try {
        await answer(
          client.PUT('/v1/dashboards/{id}', {
            params: { path: { id }, header: etag ? { 'If-Match': etag } : {} },
            body,
          }),
        );
        onSaved();
      } catch (error) {
        if (error instanceof GatewayError && error.status === 412) setConflict(true);
        else setRefusal(error);
      } finally {
        setSaving(false);
      }
    })();
  };

  return (
    <section aria-labelledby="dashboard-content-title">
      <div className="section-head">
        <h2 id="dashboard-content-title">Current content</h2>
        {canEdit && !editing && (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setEditing(true);
              onEdit();
            }}
          >
            Edit the content
          </button>
        )}
      </div>
      {editing ? (
        <form className="spec-form" onSubmit={save} aria-label="Edit the dashboard" aria-busy={saving}>
          <label className="spec-label" htmlFor="dashboard-content">
            Content (JSON)
          </label>
          <p className="muted help" id="dashboard-content-help">
            Saved only if nobody changed the dashboard since it was loaded here. Tiles left out are deleted;
            the content replaced is kept as a version.
          </p>
          <textarea
            id="dashboard-content"
            className="spec-editor"
            value={text}
            onChange={(event) => setText(event.target.value)}
            spellCheck={false}
            rows={16}
            aria-describedby="dashboard-content-help"
            aria-invalid={refusal !== null ? true : undefined}
          />
          <div className="actions">
            <button type="submit" disabled={saving}>
              {saving ? 'Saving…' : 'Save the dashboard'}
            </button>
            <button type="button" className="secondary" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
          {conflict && (
            <div className="error" role="alert">
              <p>
                Someone else changed this dashboard after you loaded it, so your change was not saved. Reload
                it to see their change, then make yours again (reloading replaces your edit).
              </p>
              <button type="button" onClick={onReload}>
                Reload the dashboard
              </button>
            </div>
          )}
          <RefusalNote error={refusal} id="dashboard-refused" />
        </form>
      ) : (
        <JsonBlock value={content} label="The dashboard's current content" />
      )}
    </section>
  );
}
