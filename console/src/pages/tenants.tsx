import type { Me } from '../gateway';

/** Signed in, but no group of the person's is mapped to a role anywhere yet. */
export function NoTenantPage({ me, onSignOut }: { me: Me; onSignOut: () => void }) {
  return (
    <main className="narrow" id="main">
      <h1>No tenant yet</h1>
      <p>
        You are signed in as <strong>{me.actor}</strong>, but none of your groups gives you a role in any
        tenant. Have the gateway's platform operator assign one of your groups to your team's tenant, and that
        tenant's administrator map it to a role (group mappings), then sign in again.
      </p>
      <button type="button" onClick={onSignOut}>
        Sign out
      </button>
    </main>
  );
}

/** The person's groups reach several tenants: each call names the one chosen here. */
export function ChooseTenantPage({
  me,
  onChoose,
  onSignOut,
}: {
  me: Me;
  onChoose: (tenantId: string) => void;
  onSignOut: () => void;
}) {
  return (
    <main className="narrow" id="main">
      <h1>Choose a tenant</h1>
      <p>
        You are signed in as <strong>{me.actor}</strong> and have roles in {me.tenants.length} tenants. You
        can switch later from the top of every page.
      </p>
      <ul className="choices">
        {me.tenants.map((tenant) => (
          <li key={tenant.id}>
            <button type="button" onClick={() => onChoose(tenant.id)}>
              {tenant.name}
            </button>{' '}
            <span className="muted">{tenant.roles.join(', ')}</span>
          </li>
        ))}
      </ul>
      <button type="button" className="secondary" onClick={onSignOut}>
        Sign out
      </button>
    </main>
  );
}
