import { useCallback, useState } from 'react';
import type { components } from '../../../../clients/typescript/src';
import { ConfirmButton, ErrorNote, TableHead, Time } from '../../components/common';
import { DiffView } from '../../components/diff-view';
import { useConsole } from '../../console-context';
import { answer, errorMessage, exchange, GatewayError, type GatewayClient } from '../../gateway';
import { href } from '../../router';
import { useData } from '../../use-data';
import { DashboardContent } from './content';

type VersionSummary = components['schemas']['DashboardVersionSummaryView'];

const CURRENT = 'current';

/** A stored version's content, read when it is chosen for the comparison. */
function useVersionContent(client: GatewayClient, id: string, side: string | null) {
  const read = useCallback(
    (signal: AbortSignal) =>
      answer(
        client.GET('/v1/dashboards/{id}/versions/{n}', { params: { path: { id, n: Number(side) } }, signal }),
      ).then((version) => version.data as unknown),
    [client, id, side],
  );
  return useData(side === null || side === CURRENT ? null : read);
}

/** The versions compared at first: the newest against the current content, or against the one before. */
function defaultSides(
  versions: VersionSummary[],
  hasCurrent: boolean,
): { left: string | null; right: string } {
  const [newest, before] = versions.map((version) => String(version.version));
  return hasCurrent
    ? { left: newest ?? null, right: CURRENT }
    : { left: before ?? newest ?? null, right: newest ?? CURRENT };
}

/**
 * One dashboard: its current content (edited by operators), its stored versions, any two compared
 * side by side, and restoring one. Auditors see the versions only.
 */
export function DashboardVersions({ id }: { id: string }) {
  const { client, can } = useConsole();
  const readsCurrent = can('DashboardsController_get');
  const overview = useData(
    useCallback(
      async (signal: AbortSignal) => {
        const [read, list] = await Promise.all([
          // A deleted dashboard (404) has no current content, but its versions remain and can be restored.
          readsCurrent
            ? exchange(client.GET('/v1/dashboards/{id}', { params: { path: { id } }, signal })).catch(
                (error: unknown) => {
                  if (error instanceof GatewayError && error.status === 404) return null;
                  throw error;
                },
              )
            : null,
          answer(client.GET('/v1/dashboards/{id}/versions', { params: { path: { id } }, signal })),
        ]);
        return {
          current: read?.data.data ?? null,
          // The ETag of the content shown: a save names it in If-Match, so it overwrites nothing unseen.
          etag: read?.response.headers.get('ETag') ?? null,
          versions: list.items,
        };
      },
      [client, id, readsCurrent],
    ),
  );
  const current = overview.value?.current ?? null;
  const versions = overview.value?.versions ?? null;
  const [chosen, setChosen] = useState<{ left: string | null; right: string } | null>(null);
  const { left, right } = chosen ?? defaultSides(versions ?? [], current !== null);
  const leftContent = useVersionContent(client, id, left);
  const rightContent = useVersionContent(client, id, right);
  const contentOf = (side: string | null, read: { value: unknown }): unknown =>
    side === CURRENT ? current : read.value;
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const reload = (message: string | null): void => {
    setChosen(null);
    setDone(message);
    overview.retry();
  };
  const restore = (version: number): void => {
    void (async () => {
      setProblem(null);
      try {
        await answer(
          client.POST('/v1/dashboards/{id}/versions/{n}/restore', { params: { path: { id, n: version } } }),
        );
        reload(
          `Version ${version} restored: it is the current content now, and what it replaced was kept as a new version.`,
        );
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
  const before = contentOf(left, leftContent);
  const after = contentOf(right, rightContent);
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
      <ErrorNote message={overview.problem} onRetry={overview.retry} />
      <ErrorNote message={problem ?? leftContent.problem ?? rightContent.problem} />
      {done && (
        <p className="verdict good" role="status">
          {done}
        </p>
      )}
      {current && overview.value && (
        <DashboardContent
          key={overview.value.etag ?? 'none'}
          id={id}
          content={current}
          etag={overview.value.etag}
          canEdit={can('DashboardsController_replace')}
          onSaved={() => reload('Saved: the content it replaced is kept as the newest version.')}
          onEdit={() => setDone(null)}
          onReload={() => reload('Reloaded: this is the dashboard as it is now.')}
        />
      )}
      <h2>Versions</h2>
      {versions === null ? (
        !overview.problem && <p role="status">Loading versions…</p>
      ) : versions.length === 0 ? (
        <p className="empty">
          This dashboard has never been replaced through the gateway: there is no earlier version.
        </p>
      ) : (
        <>
          <VersionTable
            versions={versions}
            onRestore={can('DashboardsController_restore') ? restore : null}
          />
          <div className="filters" role="group" aria-label="Versions to compare">
            <VersionChoice
              label="Left"
              value={left ?? ''}
              options={options}
              onChange={(value) => setChosen({ left: value, right })}
            />
            <VersionChoice
              label="Right"
              value={right}
              options={options}
              onChange={(value) => setChosen({ left, right: value })}
            />
          </div>
          {left !== null && before != null && after != null ? (
            <DiffView before={before} after={after} beforeLabel={label(left)} afterLabel={label(right)} />
          ) : (
            <p role="status">Loading the versions to compare…</p>
          )}
        </>
      )}
    </>
  );
}

function VersionTable({
  versions,
  onRestore,
}: {
  versions: VersionSummary[];
  onRestore: ((version: number) => void) | null;
}) {
  return (
    <table className="data">
      <caption>Stored versions: each is the content a replace or restore took the place of.</caption>
      <TableHead columns={['Version', 'Replaced', 'By', 'Tiles', onRestore !== null && 'Restore']} />
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
            {onRestore && (
              <td>
                <ConfirmButton
                  tone="plain"
                  question={`Make version ${version.version} the current content?`}
                  onConfirm={() => onRestore(version.version)}
                >
                  {`Restore version ${version.version}`}
                </ConfirmButton>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
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
