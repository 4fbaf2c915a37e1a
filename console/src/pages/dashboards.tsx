import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { components } from '../../../clients/typescript/src';
import { ConfirmButton, ErrorNote, JsonBlock, Time, TableHead } from '../components/common';
import { DiffView } from '../components/diff-view';
import { RefusalNote } from '../components/refused-fields';
import { useConsole } from '../console-context';
import { answer, errorMessage, exchange, GatewayError } from '../gateway';
import { href } from '../router';

type Dashboard = components['schemas']['Dashboard'];
type VersionSummary = components['schemas']['DashboardVersionSummaryView'];
type DashboardBody = components['schemas']['DashboardBody'];

const CURRENT = 'current';

/**
 * The tenant's dashboards; one's stored versions, compared side by side and restored (operators).
 * Auditors reach one's versions from the audit log, without its current content or the list.
 */
export function DashboardsPage({ dashboardId }: { dashboardId: string | null }) {
  const { client } = useConsole();
  const [dashboards, setDashboards] = useState<Dashboard[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (dashboardId !== null) return;
    void answer(client.GET('/v1/dashboards')).then(
      (list) => setDashboards(list.data),
      (error: unknown) => setProblem(errorMessage(error)),
    );
  }, [client, dashboardId]);

  if (dashboardId !== null) return <DashboardVersions id={dashboardId} />;
  return (
    <>
      <h1>Dashboards</h1>
      <ErrorNote message={problem} />
      {dashboards === null ? (
        !problem && <p role="status">Loading dashboards…</p>
      ) : dashboards.length === 0 ? (
        <p className="empty">There is no dashboard yet.</p>
      ) : (
        <table className="data">
          <TableHead columns={['Name', 'Tiles', 'Tags', 'Id']} />
          <tbody>
            {dashboards.map((dashboard) => (
              <tr key={dashboard.id}>
                <td>
                  <a href={href('dashboards', dashboard.id)}>{dashboard.name ?? dashboard.id}</a>
                </td>
                <td>{dashboard.tiles?.length ?? 0}</td>
                <td>{dashboard.tags?.join(', ') || '—'}</td>
                <td className="wrap">{dashboard.id}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function DashboardVersions({ id }: { id: string }) {
  const { client, can } = useConsole();
  const readsCurrent = can('DashboardsController_get');
  const [current, setCurrent] = useState<Dashboard | null>(null);
  // The ETag of the content shown: a save names it in If-Match, so it overwrites nothing unseen.
  const [etag, setEtag] = useState<string | null>(null);
  const [versions, setVersions] = useState<VersionSummary[] | null>(null);
  const [contents, setContents] = useState<Record<string, unknown>>({});
  const [left, setLeft] = useState<string | null>(null);
  const [right, setRight] = useState<string>(CURRENT);
  const [problem, setProblem] = useState<string | null>(null);
  const [restored, setRestored] = useState<number | null>(null);
  const [saved, setSaved] = useState<'saved' | 'reloaded' | null>(null);

  const load = useCallback(async () => {
    setProblem(null);
    try {
      const [read, list] = await Promise.all([
        // A deleted dashboard has no current content, but its versions remain and can be restored.
        readsCurrent
          ? exchange(client.GET('/v1/dashboards/{id}', { params: { path: { id } } })).catch(() => null)
          : null,
        answer(client.GET('/v1/dashboards/{id}/versions', { params: { path: { id } } })),
      ]);
      setCurrent(read?.data.data ?? null);
      setEtag(read?.response.headers.get('ETag') ?? null);
      setVersions(list.items);
      setContents(read ? { [CURRENT]: read.data.data } : {});
      // The newest version against the current content, or, without it, against the version before.
      const [newest, before] = list.items.map((version) => String(version.version));
      setLeft(read ? (newest ?? null) : (before ?? newest ?? null));
      setRight(read ? CURRENT : (newest ?? CURRENT));
    } catch (error) {
      setProblem(errorMessage(error));
    }
  }, [client, id, readsCurrent]);
  useEffect(() => {
    void load();
  }, [load]);

  // Stored versions' content is read when one is chosen for the comparison.
  useEffect(() => {
    for (const side of [left, right]) {
      if (side === null || side === CURRENT || side in contents) continue;
      void answer(
        client.GET('/v1/dashboards/{id}/versions/{n}', { params: { path: { id, n: Number(side) } } }),
      ).then(
        (version) => setContents((known) => ({ ...known, [side]: version.data })),
        (error: unknown) => setProblem(errorMessage(error)),
      );
    }
  }, [client, id, left, right, contents]);

  const restore = (version: number): void => {
    void (async () => {
      setProblem(null);
      try {
        await answer(
          client.POST('/v1/dashboards/{id}/versions/{n}/restore', { params: { path: { id, n: version } } }),
        );
        setRestored(version);
        setSaved(null);
        await load();
      } catch (error) {
        setProblem(errorMessage(error));
      }
    })();
  };

  const label = (side: string): string => (side === CURRENT ? 'current' : `version ${side}`);
  const options = [
    ...(current ? [{ value: CURRENT, text: 'current content' }] : []),
    ...(versions ?? []).map((version) => ({
      value: String(version.version),
      text: `version ${version.version} (until ${new Date(version.createdAt).toLocaleString()})`,
    })),
  ];
  return (
    <>
      {can('DashboardsController_list') && (
        <p>
          <a href={href('dashboards')}>← All dashboards</a>
        </p>
      )}
      <h1>Dashboard {current?.name ?? id}</h1>
      {!readsCurrent && (
        <p className="muted">Your roles show this dashboard's stored versions, not its current content.</p>
      )}
      <ErrorNote message={problem} />
      {restored !== null && (
        <p className="verdict good" role="status">
          Version {restored} restored: it is the current content now, and what it replaced was kept as a new
          version.
        </p>
      )}
      {saved && (
        <p className="verdict good" role="status">
          {saved === 'saved'
            ? 'Saved: the content it replaced is kept as the newest version.'
            : 'Reloaded: this is the dashboard as it is now.'}
        </p>
      )}
      {current && (
        <DashboardContent
          key={etag ?? 'none'}
          id={id}
          content={current}
          etag={etag}
          canEdit={can('DashboardsController_replace')}
          onSaved={() => {
            setSaved('saved');
            setRestored(null);
            void load();
          }}
          onEdit={() => setSaved(null)}
          onReload={() => {
            setSaved('reloaded');
            void load();
          }}
        />
      )}
      <h2>Versions</h2>
      {versions === null ? (
        !problem && <p role="status">Loading versions…</p>
      ) : versions.length === 0 ? (
        <p className="empty">
          This dashboard has never been replaced through the gateway: there is no earlier version.
        </p>
      ) : (
        <>
          <table className="data">
            <caption>Stored versions: each is the content a replace or restore took the place of.</caption>
            <TableHead
              columns={[
                'Version',
                'Replaced',
                'By',
                'Tiles',
                can('DashboardsController_restore') && 'Restore',
              ]}
            />
            <tbody>
              {versions.map((version) => (
                <tr key={version.version}>
                  <td>{version.version}</td>
                  <td>
                    <Time at={version.createdAt} />
                  </td>
                  <td className="wrap">
                    {version.onBehalfOf ? `${version.actor} for ${version.onBehalfOf}` : version.actor}
                  </td>
                  <td>{version.tileCount}</td>
                  {can('DashboardsController_restore') && (
                    <td>
                      <ConfirmButton
                        tone="plain"
                        question={`Make version ${version.version} the current content?`}
                        onConfirm={() => restore(version.version)}
                      >
                        {`Restore version ${version.version}`}
                      </ConfirmButton>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          <div className="filters" role="group" aria-label="Versions to compare">
            <VersionChoice label="Left" value={left ?? ''} options={options} onChange={setLeft} />
            <VersionChoice label="Right" value={right} options={options} onChange={setRight} />
          </div>
          {left !== null && left in contents && right in contents ? (
            <DiffView
              before={contents[left]}
              after={contents[right]}
              beforeLabel={label(left)}
              afterLabel={label(right)}
            />
          ) : (
            <p role="status">Loading the versions to compare…</p>
          )}
        </>
      )}
    </>
  );
}

function VersionChoice({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: { value: string; text: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.text}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The dashboard's current content; operators edit it as JSON and replace it, with If-Match naming
 * the content they started from, so someone else's change in the meantime is not overwritten.
 */
function DashboardContent({
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
