import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Console, type ConsoleContext } from './console-context';
import { answer, errorMessage, gatewayClient, type GatewayClient, type Me } from './gateway';
import { completeSignIn, type SignInSettings } from './oidc';
import { Shell } from './shell';
import { SignInPage } from './pages/sign-in';
import { ChooseTenantPage, NoTenantPage } from './pages/tenants';

interface ConsoleSettings {
  signIn: SignInSettings | null;
}

interface Session {
  token: string;
  via: 'sign-in' | 'key';
  expiresAt: number | null;
}

type Phase =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'signed-out'; settings: ConsoleSettings; notice: string | null }
  | { kind: 'signed-in'; settings: ConsoleSettings; session: Session; me: Me; client: GatewayClient };

async function loadSettings(): Promise<ConsoleSettings> {
  const response = await fetch('/console/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`The gateway answered ${response.status} for the console's settings.`);
  return (await response.json()) as ConsoleSettings;
}

function clockTime(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

export function App() {
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [tenantId, setTenantId] = useState<string | null>(null);
  // The client reads the tenant on each call, so switching tenants needs no new client; the ref is
  // set with the state, before any page renders for the new tenant.
  const tenantRef = useRef<string | null>(null);
  const chooseTenant = useCallback((id: string | null) => {
    tenantRef.current = id;
    setTenantId(id);
  }, []);

  const signOut = useCallback(
    (settings: ConsoleSettings, notice: string | null) => {
      chooseTenant(null);
      setPhase({ kind: 'signed-out', settings, notice });
    },
    [chooseTenant],
  );

  const signIn = useCallback(
    async (settings: ConsoleSettings, session: Session) => {
      const refused = (): void =>
        signOut(
          settings,
          session.via === 'key'
            ? 'The gateway no longer accepts this key (revoked or wrong). Paste a valid key.'
            : 'Your sign-in has ended. Sign in again to continue.',
        );
      const client = gatewayClient(session.token, () => tenantRef.current, refused);
      try {
        const me = await answer(client.GET('/v1/me'));
        chooseTenant(me.tenants.length === 1 ? me.tenants[0].id : null);
        setPhase({ kind: 'signed-in', settings, session, me, client });
      } catch (error) {
        signOut(settings, errorMessage(error));
      }
    },
    [signOut, chooseTenant],
  );

  // Once per page load, even where React runs effects twice (development): a code is used once.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      let settings: ConsoleSettings;
      try {
        settings = await loadSettings();
      } catch (error) {
        setPhase({ kind: 'failed', message: errorMessage(error) });
        return;
      }
      if (settings.signIn === null) return signOut(settings, null);
      try {
        const signedIn = await completeSignIn(settings.signIn);
        if (signedIn === null) return signOut(settings, null);
        await signIn(settings, { ...signedIn, via: 'sign-in' });
      } catch (error) {
        signOut(settings, errorMessage(error));
      }
    })();
  }, [signIn, signOut]);

  // A token that expires ends the session then, rather than at the next refused call.
  const expiresAt = phase.kind === 'signed-in' ? phase.session.expiresAt : null;
  useEffect(() => {
    if (phase.kind !== 'signed-in' || expiresAt === null) return;
    const { settings } = phase;
    const timer = window.setTimeout(
      () => signOut(settings, `Your sign-in expired at ${clockTime(expiresAt)}. Sign in again to continue.`),
      Math.max(0, expiresAt - Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [phase, expiresAt, signOut]);

  const context = useMemo<ConsoleContext | null>(() => {
    if (phase.kind !== 'signed-in') return null;
    const tenant = phase.me.tenants.find((candidate) => candidate.id === tenantId);
    if (!tenant) return null;
    const allowed = new Set(tenant.operations);
    return { client: phase.client, tenant, can: (operation) => allowed.has(operation) };
  }, [phase, tenantId]);

  switch (phase.kind) {
    case 'loading':
      return <p className="loading">Loading the console…</p>;
    case 'failed':
      return (
        <main className="narrow" id="main">
          <h1>The console could not start</h1>
          <p role="alert">{phase.message}</p>
        </main>
      );
    case 'signed-out':
      return (
        <SignInPage
          signIn={phase.settings.signIn}
          notice={phase.notice}
          onKey={(key) => void signIn(phase.settings, { token: key, via: 'key', expiresAt: null })}
        />
      );
    case 'signed-in': {
      const leave = (): void => signOut(phase.settings, 'You have signed out.');
      if (phase.me.tenants.length === 0) return <NoTenantPage me={phase.me} onSignOut={leave} />;
      if (context === null)
        return <ChooseTenantPage me={phase.me} onChoose={chooseTenant} onSignOut={leave} />;
      return (
        <Console.Provider value={context}>
          <Shell me={phase.me} onChooseTenant={chooseTenant} onSignOut={leave} />
        </Console.Provider>
      );
    }
  }
}
