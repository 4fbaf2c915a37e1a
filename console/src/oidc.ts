/**
 * Sign-in with the OpenID Connect authorization code flow and PKCE (S256) as a public client.
 * Only the one-time state and code verifier wait in sessionStorage across the issuer's redirect;
 * the token itself is kept in memory.
 */
export interface SignInSettings {
  issuer: string;
  clientId: string;
}

export interface SignedIn {
  token: string;
  /** Epoch milliseconds, or null when the issuer did not say. */
  expiresAt: number | null;
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
}

interface Pending {
  state: string;
  verifier: string;
  /** The console page to come back to. */
  returnTo: string;
}

const PENDING_KEY = 'pipes-console-sign-in';
const SCOPE = 'openid email profile';

/** Where the issuer sends the browser back: the console's own page, registered with the issuer. */
export function redirectUri(): string {
  return `${window.location.origin}/console/`;
}

async function discover(issuer: string): Promise<Discovery> {
  let response: Response;
  try {
    response = await fetch(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`);
  } catch {
    throw new Error(`The identity provider at ${issuer} could not be reached.`);
  }
  if (!response.ok) throw new Error(`The identity provider at ${issuer} answered ${response.status}.`);
  const document = (await response.json()) as Partial<Discovery>;
  if (typeof document.authorization_endpoint !== 'string' || typeof document.token_endpoint !== 'string') {
    throw new Error('The identity provider does not offer the authorization code flow.');
  }
  return document as Discovery;
}

function randomText(bytes: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export async function codeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** Sends the browser to the issuer's sign-in page. */
export async function startSignIn(settings: SignInSettings): Promise<void> {
  const discovery = await discover(settings.issuer);
  const pending: Pending = {
    state: randomText(16),
    verifier: randomText(32),
    returnTo: window.location.hash,
  };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: settings.clientId,
    redirect_uri: redirectUri(),
    scope: SCOPE,
    state: pending.state,
    code_challenge: await codeChallenge(pending.verifier),
    code_challenge_method: 'S256',
  }).toString();
  window.location.assign(url.toString());
}

/**
 * Back from the issuer: exchanges the code for a token and cleans the address bar. Answers null
 * when this page load is not a return from the issuer, and for an error that does not answer a
 * sign-in this page started.
 */
export async function completeSignIn(settings: SignInSettings): Promise<SignedIn | null> {
  const query = new URLSearchParams(window.location.search);
  if (!query.has('code') && !query.has('error')) return null;
  const stored = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  const pending = stored === null ? null : (JSON.parse(stored) as Pending);
  window.history.replaceState(null, '', `/console/${pending?.returnTo ?? ''}`);
  const ours = pending !== null && query.get('state') === pending.state;
  if (query.has('error')) {
    // Anyone can send a link carrying an error and its text: only the issuer knows our state.
    if (!ours) return null;
    throw new Error(
      `The identity provider refused the sign-in: ${query.get('error_description') ?? query.get('error')}.`,
    );
  }
  if (!ours) {
    throw new Error('This sign-in was not started here or has already been used. Sign in again.');
  }
  const discovery = await discover(settings.issuer);
  const response = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: query.get('code') ?? '',
      redirect_uri: redirectUri(),
      client_id: settings.clientId,
      code_verifier: pending.verifier,
    }),
  }).catch(() => {
    throw new Error('The identity provider could not be reached to finish the sign-in.');
  });
  const body = (await response.json().catch(() => ({}))) as {
    access_token?: string;
    expires_in?: number;
    error_description?: string;
    error?: string;
  };
  if (!response.ok || typeof body.access_token !== 'string') {
    throw new Error(
      `The identity provider did not finish the sign-in: ${body.error_description ?? body.error ?? response.status}.`,
    );
  }
  return {
    token: body.access_token,
    expiresAt: typeof body.expires_in === 'number' ? Date.now() + body.expires_in * 1000 : null,
  };
}
