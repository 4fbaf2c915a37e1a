import { useEffect, useRef } from 'react';
import { useConsole } from './console-context';
import type { Me } from './gateway';
import { href, useRoute } from './router';
import { SECTIONS, type Section } from './sections';
import { AuditPage } from './pages/audit';
import { DashboardsPage } from './pages/dashboards';
import { HistoryPage } from './pages/history';
import { PipesPage } from './pages/pipes';
import { VaultPage } from './pages/vault';

/** The signed-in console: who and where at the top, the sections the person may use, the page. */
export function Shell({
  me,
  onChooseTenant,
  onSignOut,
}: {
  me: Me;
  onChooseTenant: (tenantId: string) => void;
  onSignOut: () => void;
}) {
  const { tenant, can } = useConsole();
  const route = useRoute();
  const sections = SECTIONS.filter((section) => can(section.operation));
  const itemOpen = (candidate: Section): boolean =>
    route.id !== null && candidate.itemOperation !== undefined && can(candidate.itemOperation);
  const section =
    SECTIONS.find(
      (candidate) => candidate.page === route.page && (sections.includes(candidate) || itemOpen(candidate)),
    ) ?? sections[0];
  const main = useRef<HTMLElement>(null);

  useEffect(() => {
    if (section) document.title = `${section.title} · pipes-gateway console`;
  }, [section]);

  return (
    <>
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <header className="top">
        <span className="brand">pipes-gateway</span>
        {me.tenants.length > 1 ? (
          <label className="tenant">
            Tenant{' '}
            <select value={tenant.id} onChange={(event) => onChooseTenant(event.target.value)}>
              {me.tenants.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span className="tenant">Tenant {tenant.name}</span>
        )}
        <span className="who">
          {me.actor} <span className="roles">({tenant.roles.join(', ')})</span>
        </span>
        <button type="button" className="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <nav className="sections" aria-label="Sections">
        <ul>
          {sections.map((candidate) => (
            <li key={candidate.page}>
              <a href={href(candidate.page)} aria-current={candidate === section ? 'page' : undefined}>
                {candidate.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" ref={main} tabIndex={-1}>
        {section === undefined ? (
          <p>Your roles in this tenant ({tenant.roles.join(', ')}) open none of the console's sections.</p>
        ) : (
          <Page
            page={section.page}
            path={section.page === route.page ? route.path : []}
            query={section.page === route.page ? route.query : ''}
          />
        )}
      </main>
    </>
  );
}

function Page({ page, path, query }: { page: string; path: string[]; query: string }) {
  const id = path[0] ?? null;
  switch (page) {
    case 'audit':
      return <AuditPage query={query} />;
    case 'history':
      return <HistoryPage recordId={id} query={query} />;
    case 'vault':
      return <VaultPage credentialId={id} />;
    case 'pipes':
      return <PipesPage path={path} />;
    default:
      return <DashboardsPage dashboardId={id} />;
  }
}
