import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

export type SigningAlgorithm = 'RS256' | 'ES256' | 'PS256';

export interface OidcIssuerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
  /** The `aud` of minted tokens (default `pipes-gateway`). */
  audience?: string;
  /** Defaults to RS256. */
  algorithm?: SigningAlgorithm;
  /** Public clients that may sign people in with the authorization code flow (more: registerClient). */
  clients?: OidcClient[];
  /** Lifetime of the tokens the code flow and `POST /token` mint, in seconds (default 3600). */
  tokenLifetimeSeconds?: number;
  /** Groups the sign-in page offers to pick from (any may be typed). */
  suggestedGroups?: string[];
}

/** A public client (no secret) of the authorization code flow with PKCE. */
export interface OidcClient {
  clientId: string;
  /** Exact redirect URIs it may send people back to. */
  redirectUris: string[];
}

/** An authorization code waiting to be exchanged, bound to its client, redirect URI and challenge. */
interface IssuedCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  email: string;
  groups: string[];
  expiresAt: number;
}

/** The parameters of an authorization request that names a known client and one of its redirect URIs. */
interface AuthorizationRequest {
  client: OidcClient;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
}

export interface SigningKey {
  kid: string;
  algorithm: SigningAlgorithm;
  privateKey: CryptoKey;
  /** The public half as published in the key set. */
  publicJwk: JWK;
}

export interface MintOptions {
  /** Seconds until `exp` (default 3600); negative for a token that has already expired. */
  expiresInSeconds?: number;
  /** Seconds from now until `nbf` (none by default). */
  notBeforeInSeconds?: number;
  /** Overrides the issuer's own `iss` or its audience. */
  issuer?: string;
  audience?: string;
  /** Signs with this key instead of the current one (it need not be published). */
  key?: SigningKey;
}

const MAX_TOKEN_BODY_BYTES = 16 * 1024;
const CODE_LIFETIME_MS = 60_000;
// RFC 7636: 43 to 128 characters of [A-Za-z0-9-._~].
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * A local OpenID Connect issuer for the sandbox and the tests: discovery, a key set, the
 * authorization code flow with PKCE (S256) for registered public clients, whose sign-in page
 * takes any email and groups, and `POST /token` with JSON that mints a token for a named user and
 * groups; no password is ever asked. It signs like a real provider (asymmetric keys, `kid`) and
 * can rotate its keys.
 */
export class OidcIssuer {
  readonly audience: string;
  private readonly clients = new Map<string, OidcClient>();
  private readonly codes = new Map<string, IssuedCode>();
  private keys: SigningKey[] = [];
  private keySetRequests = 0;
  private server!: Server;
  private address = '';

  constructor(private readonly options: OidcIssuerOptions = {}) {
    this.audience = options.audience ?? 'pipes-gateway';
    for (const client of options.clients ?? []) this.registerClient(client);
  }

  /** Lets `client` sign people in through the code flow, back to its redirect URIs only. */
  registerClient(client: OidcClient): void {
    this.clients.set(client.clientId, { clientId: client.clientId, redirectUris: [...client.redirectUris] });
  }

  /** The issuer identifier: tokens' `iss`, and the base of discovery. */
  get url(): string {
    return this.address;
  }

  /** How many times the key set was fetched. */
  get jwksRequests(): number {
    return this.keySetRequests;
  }

  private get tokenLifetimeSeconds(): number {
    return this.options.tokenLifetimeSeconds ?? 3600;
  }

  /** The key new tokens are signed with. */
  get currentKey(): SigningKey {
    return this.keys[0];
  }

  async start(): Promise<this> {
    this.keys = [await newSigningKey(this.options.algorithm ?? 'RS256')];
    this.server = createServer((request, response) => {
      this.handle(request, response).catch(() => send(response, 500, { error: 'server_error' }));
    });
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const { address, port } = this.server.address() as AddressInfo;
    // Listening on every interface, the issuer names itself by loopback: tokens' `iss` must be a URL.
    const reachable = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address;
    this.address = `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
    return this;
  }

  /**
   * A signed token for `claims` (e.g. `{email, groups}`), valid for an hour unless told otherwise.
   * An `email` comes with `email_verified: true`, as a provider says of an address it checked;
   * give `email_verified: false` (or `undefined`, to leave the claim out) for one it did not.
   */
  async mint(claims: JWTPayload, options: MintOptions = {}): Promise<string> {
    const key = options.key ?? this.currentKey;
    const now = Math.floor(Date.now() / 1000);
    const verified = typeof claims.email === 'string' ? { email_verified: true } : {};
    const jwt = new SignJWT({ sub: randomUUID(), ...verified, ...claims })
      .setProtectedHeader({ alg: key.algorithm, kid: key.kid, typ: 'JWT' })
      .setIssuer(options.issuer ?? this.url)
      .setAudience(options.audience ?? this.audience)
      .setIssuedAt(now)
      .setExpirationTime(now + (options.expiresInSeconds ?? this.tokenLifetimeSeconds));
    if (options.notBeforeInSeconds !== undefined) jwt.setNotBefore(now + options.notBeforeInSeconds);
    return jwt.sign(key.privateKey);
  }

  /**
   * Starts signing with a new key. The key set then publishes the new key first and, when
   * `keepOld`, the previous ones too (as providers do while tokens signed with them live on).
   */
  async rotateKey(options: { keepOld?: boolean; algorithm?: SigningAlgorithm } = {}): Promise<SigningKey> {
    const key = await newSigningKey(options.algorithm ?? this.currentKey.algorithm);
    this.keys = options.keepOld ? [key, ...this.keys] : [key];
    return key;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const path = url.pathname;
    if (request.method === 'GET' && path === '/.well-known/openid-configuration') {
      return send(response, 200, {
        issuer: this.url,
        jwks_uri: `${this.url}/jwks`,
        authorization_endpoint: `${this.url}/authorize`,
        token_endpoint: `${this.url}/token`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        scopes_supported: ['openid', 'email', 'profile'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: [this.currentKey.algorithm],
      });
    }
    if (request.method === 'GET' && path === '/jwks') {
      this.keySetRequests += 1;
      return send(response, 200, { keys: this.keys.map((key) => key.publicJwk) });
    }
    if (path === '/authorize' && (request.method === 'GET' || request.method === 'POST')) {
      const form =
        request.method === 'POST' ? new URLSearchParams(await readBody(request)) : url.searchParams;
      return this.authorize(request.method, form, response);
    }
    if (request.method === 'POST' && path === '/token') {
      const body = await readBody(request);
      if (/^application\/x-www-form-urlencoded/i.test(request.headers['content-type'] ?? '')) {
        return this.exchangeCode(new URLSearchParams(body), response);
      }
      const input = parseTokenRequest(body);
      if (typeof input === 'string')
        return send(response, 400, { error: 'invalid_request', error_description: input });
      const token = await this.mint({ email: input.email, groups: input.groups });
      return send(response, 200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: this.tokenLifetimeSeconds,
      });
    }
    send(response, 404, { error: 'not_found' });
  }

  /**
   * The sign-in page (GET) and its answer (POST): a form asking only an email and groups, then
   * back to the client's redirect URI with a one-time code. A request naming an unknown client or
   * redirect URI is answered here, never redirected.
   */
  private authorize(method: string, form: URLSearchParams, response: ServerResponse): void {
    const checked = this.authorizationRequest(form);
    if (typeof checked === 'string') return sendPage(response, 400, errorPage(checked), null);
    const back = (params: Record<string, string>): void => {
      const target = new URL(checked.redirectUri);
      for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
      if (checked.state !== null) target.searchParams.set('state', checked.state);
      response.writeHead(302, { location: target.toString(), 'cache-control': 'no-store' });
      response.end();
    };
    if (form.get('response_type') !== 'code') {
      return back({
        error: 'unsupported_response_type',
        error_description: 'only response_type=code is offered',
      });
    }
    if (method === 'GET') {
      return sendPage(
        response,
        200,
        signInPage(form, this.options.suggestedGroups ?? []),
        checked.redirectUri,
      );
    }
    // As a real issuer does when the person declines: back to the client, naming why.
    if (form.has('cancel')) {
      return back({ error: 'access_denied', error_description: 'The person cancelled the sign-in' });
    }
    const email = form.get('email')?.trim() ?? '';
    if (email.length === 0 || email.length > 256) {
      return sendPage(
        response,
        400,
        signInPage(form, this.options.suggestedGroups ?? [], 'Type an email address.'),
        checked.redirectUri,
      );
    }
    const groups = (form.get('groups') ?? '')
      .split(',')
      .map((group) => group.trim())
      .filter((group) => group.length > 0);
    const code = randomBytes(32).toString('base64url');
    this.codes.set(code, {
      clientId: checked.client.clientId,
      redirectUri: checked.redirectUri,
      codeChallenge: checked.codeChallenge,
      email,
      groups,
      expiresAt: Date.now() + CODE_LIFETIME_MS,
    });
    back({ code });
  }

  private authorizationRequest(form: URLSearchParams): AuthorizationRequest | string {
    const client = this.clients.get(form.get('client_id') ?? '');
    if (!client) return 'This application (client_id) is not registered with the sandbox issuer.';
    const redirectUri = form.get('redirect_uri') ?? '';
    if (!client.redirectUris.includes(redirectUri)) {
      return `The redirect_uri is not one registered for ${client.clientId}.`;
    }
    const codeChallenge = form.get('code_challenge') ?? '';
    if (form.get('code_challenge_method') !== 'S256' || !CODE_CHALLENGE.test(codeChallenge)) {
      return 'PKCE is required: send code_challenge with code_challenge_method=S256.';
    }
    return { client, redirectUri, state: form.get('state'), codeChallenge };
  }

  /** `grant_type=authorization_code`: a code once, by its client, with the verifier of its challenge. */
  private async exchangeCode(form: URLSearchParams, response: ServerResponse): Promise<void> {
    const refuse = (error: string, description: string): void =>
      send(response, 400, { error, error_description: description });
    if (form.get('grant_type') !== 'authorization_code') {
      return refuse('unsupported_grant_type', 'only grant_type=authorization_code is offered');
    }
    const code = form.get('code') ?? '';
    const issued = this.codes.get(code);
    // A code is good for one exchange, whatever its outcome.
    this.codes.delete(code);
    if (!issued || issued.expiresAt < Date.now())
      return refuse('invalid_grant', 'the code is unknown, used or expired');
    if (form.get('client_id') !== issued.clientId)
      return refuse('invalid_grant', 'the code was issued to another client');
    if (form.get('redirect_uri') !== issued.redirectUri) {
      return refuse('invalid_grant', 'redirect_uri differs from the authorization request');
    }
    const verifier = form.get('code_verifier') ?? '';
    if (
      !CODE_VERIFIER.test(verifier) ||
      createHash('sha256').update(verifier).digest('base64url') !== issued.codeChallenge
    ) {
      return refuse('invalid_grant', 'code_verifier does not match the code_challenge');
    }
    const token = await this.mint({ email: issued.email, email_verified: true, groups: issued.groups });
    send(response, 200, { access_token: token, token_type: 'Bearer', expires_in: this.tokenLifetimeSeconds });
  }
}

/** A key this issuer does not publish: tokens signed with it must be refused. */
export function unpublishedKey(algorithm: SigningAlgorithm = 'RS256'): Promise<SigningKey> {
  return newSigningKey(algorithm);
}

export async function startOidcIssuer(options: OidcIssuerOptions = {}): Promise<OidcIssuer> {
  return new OidcIssuer(options).start();
}

async function newSigningKey(algorithm: SigningAlgorithm): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(algorithm);
  const kid = randomUUID();
  return {
    kid,
    algorithm,
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: algorithm, use: 'sig' },
  };
}

/** `{email, groups}`: a dev user's address and the groups their token lists. */
function parseTokenRequest(body: string): { email: string; groups: string[] } | string {
  let input: unknown;
  try {
    input = JSON.parse(body);
  } catch {
    return 'send JSON: {"email": "dev@example.com", "groups": ["sandbox-admins"]}';
  }
  const { email, groups } = (input ?? {}) as { email?: unknown; groups?: unknown };
  if (typeof email !== 'string' || email.length === 0 || email.length > 256) {
    return 'email must be a string of 1 to 256 characters';
  }
  if (
    groups !== undefined &&
    !(Array.isArray(groups) && groups.every((group) => typeof group === 'string'))
  ) {
    return 'groups must be a list of strings';
  }
  return { email, groups: groups ?? [] };
}

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) {
    body += String(chunk);
    if (body.length > MAX_TOKEN_BODY_BYTES) break;
  }
  return body;
}

function send(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    // Browsers read discovery and exchange codes from another origin: these answers are public.
    'access-control-allow-origin': '*',
  });
  response.end(JSON.stringify(value));
}

/** An HTML page; its form may post here and then redirect to `redirectUri`'s origin. */
function sendPage(response: ServerResponse, status: number, html: string, redirectUri: string | null): void {
  const formAction = redirectUri === null ? '' : ` ${new URL(redirectUri).origin}`;
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${formAction}; frame-ancestors 'none'`,
  });
  response.end(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const PAGE_STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}' +
  'label{display:block;margin-top:1rem;font-weight:600}input{font:inherit;width:100%;padding:.4rem;margin-top:.25rem;' +
  'border:1px solid #8c959f;border-radius:6px}button{font:inherit;margin-top:1.25rem;padding:.45rem 1rem;' +
  'background:#1d4ed8;color:#fff;border:0;border-radius:6px}p.hint{color:#4b5563;font-size:.9rem}' +
  '.error{color:#7f1d1d;background:#fef2f2;border:1px solid #fca5a5;padding:.5rem;border-radius:6px}';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style></head><body><main>${body}</main></body></html>`;
}

function errorPage(message: string): string {
  return page(
    'Sign-in refused',
    `<h1>Sign-in refused</h1><p class="error" role="alert">${escapeHtml(message)}</p>`,
  );
}

/** Asks an email and groups, carrying the authorization request along in hidden fields. */
function signInPage(request: URLSearchParams, suggestedGroups: string[], problem?: string): string {
  const carried = [
    'response_type',
    'client_id',
    'redirect_uri',
    'scope',
    'state',
    'code_challenge',
    'code_challenge_method',
  ]
    .filter((name) => request.has(name))
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(request.get(name)!)}">`)
    .join('');
  const options = suggestedGroups.map((group) => `<option value="${escapeHtml(group)}"></option>`).join('');
  const hint = suggestedGroups.length > 0 ? `Known here: ${suggestedGroups.map(escapeHtml).join(', ')}.` : '';
  return page(
    'Sign in: sandbox issuer',
    `<h1>Sign in to the sandbox</h1>
<p class="hint">This local issuer signs anyone in, with no password: type who you want to be.</p>
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/authorize">${carried}
<label for="email">Email</label><input id="email" name="email" type="email" required value="${escapeHtml(request.get('email') ?? 'dev@example.com')}" autocomplete="email">
<label for="groups">Groups (comma-separated)</label><input id="groups" name="groups" list="known-groups" value="${escapeHtml(request.get('groups') ?? suggestedGroups[0] ?? '')}" aria-describedby="groups-hint">
<datalist id="known-groups">${options}</datalist>
<p class="hint" id="groups-hint">${hint}</p>
<button type="submit">Sign in</button>
<button type="submit" name="cancel" value="1" formnovalidate>Cancel</button>
</form>`,
  );
}
