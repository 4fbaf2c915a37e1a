import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
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

/**
 * A local OpenID Connect issuer for the sandbox and the tests: discovery, a key set, and
 * `POST /token` that mints a signed token for a named user and groups, no password asked. It
 * signs like a real provider (asymmetric keys, `kid`) and can rotate its keys.
 */
export class OidcIssuer {
  readonly audience: string;
  private keys: SigningKey[] = [];
  private keySetRequests = 0;
  private server!: Server;
  private address = '';

  constructor(private readonly options: OidcIssuerOptions = {}) {
    this.audience = options.audience ?? 'pipes-gateway';
  }

  /** The issuer identifier: tokens' `iss`, and the base of discovery. */
  get url(): string {
    return this.address;
  }

  /** How many times the key set was fetched. */
  get jwksRequests(): number {
    return this.keySetRequests;
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
      .setExpirationTime(now + (options.expiresInSeconds ?? 3600));
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
    const path = (request.url ?? '/').split('?')[0];
    if (request.method === 'GET' && path === '/.well-known/openid-configuration') {
      return send(response, 200, {
        issuer: this.url,
        jwks_uri: `${this.url}/jwks`,
        token_endpoint: `${this.url}/token`,
        response_types_supported: ['token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: [this.currentKey.algorithm],
      });
    }
    if (request.method === 'GET' && path === '/jwks') {
      this.keySetRequests += 1;
      return send(response, 200, { keys: this.keys.map((key) => key.publicJwk) });
    }
    if (request.method === 'POST' && path === '/token') {
      const input = parseTokenRequest(await readBody(request));
      if (typeof input === 'string')
        return send(response, 400, { error: 'invalid_request', error_description: input });
      const token = await this.mint({ email: input.email, groups: input.groups });
      return send(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    send(response, 404, { error: 'not_found' });
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
  });
  response.end(JSON.stringify(value));
}
