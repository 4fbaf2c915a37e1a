import { useCallback } from 'react';
import { ErrorNote, TableHead } from '../components/common';
import { useConsole } from '../console-context';
import { answer } from '../gateway';
import { href } from '../router';
import { useData } from '../use-data';
import { DashboardVersions } from './dashboards/versions';

/**
 * The tenant's dashboards; one's stored versions, compared side by side and restored (operators).
 * Auditors reach one's versions from the audit log, without its current content or the list.
 */
export function DashboardsPage({ dashboardId }: { dashboardId: string | null }) {
  return dashboardId === null ? <DashboardList /> : <DashboardVersions id={dashboardId} />;
}

function DashboardList() {
  const { client } = useConsole();
  const list = useData(
    useCallback(
      (signal: AbortSignal) => answer(client.GET('/v1/dashboards', { signal })).then((read) => read.data),
      [client],
    ),
  );
  const dashboards = list.value;
  return (
    <>
      <h1>Dashboards</h1>
      <ErrorNote message={list.problem} onRetry={list.retry} />
      {dashboards === null ? (
        !list.problem && <p role="status">Loading dashboards…</p>
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
