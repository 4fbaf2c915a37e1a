import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { startOidcIssuer, type OidcIssuer } from './oidc-issuer';

const CLIENT = 'console';
const REDIRECT = 'http://127.0.0.1:3000/console/';

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe('the sandbox OIDC issuer: authorization code flow with PKCE', () => {
  let issuer: OidcIssuer;

  beforeAll(async () => {
    issuer = await startOidcIssuer({
      audience: 'gateway',
      clients: [{ clientId: CLIENT, redirectUris: [REDIRECT] }],
      suggestedGroups: ['admins', 'viewers'],
      tokenLifetimeSeconds: 120,
    });
  });
  afterAll(() => issuer.close());

  const authorizeQuery = (challenge: string, overrides: Record<string, string> = {}) =>
    new URLSearchParams({
      response_type: 'code',
      client_id: CLIENT,
      redirect_uri: REDIRECT,
      state: 'state-123',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...overrides,
    });
  /** Signs in on the issuer's page as `email` in `groups`; answers the code it redirected with. */
  const signIn = async (challenge: string, email = 'dana@example.com', groups = 'admins, viewers') => {
    const form = authorizeQuery(challenge);
    form.set('email', email);
    form.set('groups', groups);
    const response = await fetch(`${issuer.url}/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('state-123');
    return location.searchParams.get('code')!;
  };
  const exchange = (fields: Record<string, string>) =>
    fetch(`${issuer.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: CLIENT,
        redirect_uri: REDIRECT,
        ...fields,
      }),
    });

  it('advertises the flow in its discovery document, readable from any origin', async () => {
    const response = await fetch(`${issuer.url}/.well-known/openid-configuration`);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toMatchObject({
      authorization_endpoint: `${issuer.url}/authorize`,
      token_endpoint: `${issuer.url}/token`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    });
  });

  it('shows a sign-in form that carries the request and may post back to the client only', async () => {
    const { challenge } = pkce();
    const response = await fetch(`${issuer.url}/authorize?${authorizeQuery(challenge).toString()}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain(
      "form-action 'self' http://127.0.0.1:3000",
    );
    const html = await response.text();
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain(`name="code_challenge" value="${challenge}"`);
    expect(html).toContain('Known here: admins, viewers.');
  });

  it('exchanges a code once, for its verifier, into a token for the person and groups given', async () => {
    const { verifier, challenge } = pkce();
    const code = await signIn(challenge);
    const response = await exchange({ code, code_verifier: verifier });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string };
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 120 });
    const { payload } = await jwtVerify(
      body.access_token,
      createRemoteJWKSet(new URL(`${issuer.url}/jwks`)),
      {
        issuer: issuer.url,
        audience: 'gateway',
      },
    );
    expect(payload).toMatchObject({
      email: 'dana@example.com',
      email_verified: true,
      groups: ['admins', 'viewers'],
    });
    expect(payload.exp! - payload.iat!).toBe(120);

    const again = await exchange({ code, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it.each([
    ['a wrong verifier', (verifier: string) => ({ code_verifier: `${verifier.slice(0, -1)}x` })],
    ['no verifier', () => ({ code_verifier: '' })],
    ['another client', (verifier: string) => ({ code_verifier: verifier, client_id: 'other' })],
    [
      'another redirect URI',
      (verifier: string) => ({ code_verifier: verifier, redirect_uri: 'http://127.0.0.1:3000/x' }),
    ],
  ])('refuses the exchange with %s', async (_case, fields) => {
    const { verifier, challenge } = pkce();
    const code = await signIn(challenge);
    const response = await exchange({ code, ...fields(verifier) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it.each([
    ['an unknown client', { client_id: 'stranger' }, 'not registered'],
    [
      'an unregistered redirect URI',
      { redirect_uri: 'https://evil.example.com/' },
      'redirect_uri is not one registered',
    ],
    ['no PKCE challenge', { code_challenge: '' }, 'PKCE is required'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'PKCE is required'],
  ])('answers a request with %s on its own page, never redirecting', async (_case, overrides, words) => {
    const { challenge } = pkce();
    const response = await fetch(
      `${issuer.url}/authorize?${authorizeQuery(challenge, overrides).toString()}`,
      {
        redirect: 'manual',
      },
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(words);
  });

  it('sends an unsupported response type back to the client as an error', async () => {
    const { challenge } = pkce();
    const response = await fetch(
      `${issuer.url}/authorize?${authorizeQuery(challenge, { response_type: 'token' }).toString()}`,
      {
        redirect: 'manual',
      },
    );
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
    expect(location.searchParams.get('state')).toBe('state-123');
  });

  it('sends a cancelled sign-in back to the client as access_denied, with its state', async () => {
    const form = authorizeQuery(pkce().challenge);
    form.set('cancel', '1');
    const response = await fetch(`${issuer.url}/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('still mints a token from a JSON POST /token, for curl', async () => {
    const response = await fetch(`${issuer.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dev@example.com', groups: ['admins'] }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { expires_in: number }).expires_in).toBe(120);
  });
});
