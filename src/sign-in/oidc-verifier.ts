import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  createRemoteJWKSet,
  decodeJwt,
  errors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { AppConfig, OidcConfig } from '../config/app-config';
import { ProblemException } from '../common/problem/problem';
import { unprintableTextReason } from '../common/validation/safe-text';

/** Asymmetric signatures only: never `none`, never an HMAC whose secret could be the public key. */
export const ALLOWED_ALGORITHMS = ['RS256', 'ES256', 'PS256'];
// Clocks of the issuer and the gateway may differ by this much.
const CLOCK_SKEW_SECONDS = 30;
// Keys are fetched again after this long even when no token names an unknown one.
const JWKS_MAX_AGE_MS = 10 * 60_000;
const FETCH_TIMEOUT_MS = 5_000;
// After a failed discovery, tokens are answered 503 for this long before it is tried again.
const DISCOVERY_RETRY_MS = 10_000;
const MAX_USER_LENGTH = 256;

/** What a verified token says about its user. */
export interface SignedInUser {
  /**
   * `user:<email>` for the address in OIDC_USER_CLAIM when the token says `email_verified: true`;
   * `user-sub:<sub>` for any other token, so that a `sub` shaped like an address never reads as one.
   */
  actor: string;
  issuer: string;
  groups: string[];
}

/** A token that is not valid; `message` says why without quoting any of it. */
export class InvalidTokenError extends Error {}

/**
 * Verifies users' tokens from OIDC_ISSUER with `jose`: the signature against the issuer's key set
 * (found through discovery), `iss`, `aud`, `exp` and `nbf`. The key set is cached and fetched again
 * when a token names an unknown key, at most once per OIDC_JWKS_COOLDOWN_MS.
 */
@Injectable()
export class OidcVerifier {
  private readonly logger = new Logger(OidcVerifier.name);
  private readonly config: OidcConfig | null;
  private readonly production: boolean;
  private keySet: Promise<JWTVerifyGetKey> | null = null;
  private discoveryFailedAt = 0;

  constructor(config: ConfigService<AppConfig, true>) {
    this.config = config.get('oidc', { infer: true });
    this.production = config.get('env', { infer: true }) === 'production';
  }

  get enabled(): boolean {
    return this.config !== null;
  }

  async verify(token: string): Promise<SignedInUser> {
    const config = this.config;
    if (config === null) throw new InvalidTokenError('Sign-in is not configured on this gateway.');
    // Another issuer's token names a key this issuer does not publish: say what is wrong with it
    // rather than that, and spare the issuer a refetch of its keys. Refusing on an unverified claim is safe.
    const claimed = claimedIssuer(token);
    if (claimed !== undefined && claimed !== config.issuer) {
      throw new InvalidTokenError(`The token was not issued by ${config.issuer}.`);
    }
    const keys = await this.keys(config);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: config.issuer,
        audience: config.audience,
        algorithms: ALLOWED_ALGORITHMS,
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      throw tokenProblem(error, config);
    }
    return {
      actor: actorOf(payload, config.userClaim),
      issuer: config.issuer,
      groups: groupsOf(payload[config.groupsClaim]),
    };
  }

  /** The issuer's key set, found through discovery on first use. */
  private keys(config: OidcConfig): Promise<JWTVerifyGetKey> {
    if (this.keySet === null) {
      if (Date.now() - this.discoveryFailedAt < DISCOVERY_RETRY_MS) throw issuerUnavailable();
      this.keySet = this.discover(config).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'OIDC discovery failed');
        this.keySet = null;
        this.discoveryFailedAt = Date.now();
        throw issuerUnavailable();
      });
    }
    return this.keySet;
  }

  private async discover(config: OidcConfig): Promise<JWTVerifyGetKey> {
    const url = `${config.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
    if (!response.ok) throw new Error(`discovery answered ${response.status}`);
    const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    // OpenID Connect Discovery 1.0, section 4.3: the document must name the issuer it came from.
    if (document.issuer !== config.issuer) throw new Error('discovery names another issuer');
    if (typeof document.jwks_uri !== 'string') throw new Error('discovery has no jwks_uri');
    const jwksUri = new URL(document.jwks_uri);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(jwksUri.hostname);
    if (jwksUri.protocol !== 'https:' && !(jwksUri.protocol === 'http:' && loopback && !this.production)) {
      throw new Error('jwks_uri is not https');
    }
    return createRemoteJWKSet(jwksUri, {
      cooldownDuration: config.jwksCooldownMs,
      cacheMaxAge: JWKS_MAX_AGE_MS,
      timeoutDuration: FETCH_TIMEOUT_MS,
    });
  }
}

function issuerUnavailable(): ProblemException {
  return new ProblemException({
    status: 503,
    type: 'sign-in-unavailable',
    title: 'Sign-in unavailable',
    detail:
      "The identity provider's keys could not be fetched, so user tokens cannot be checked now. Gateway keys still work.",
    headers: { 'retry-after': String(DISCOVERY_RETRY_MS / 1000) },
  });
}

/** The `iss` a token claims, unverified; undefined when it is not a JWT with a text `iss`. */
function claimedIssuer(token: string): string | undefined {
  try {
    const { iss } = decodeJwt(token);
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}

/** Why a token was refused, in words that quote nothing of it; 503 when the issuer could not be reached. */
function tokenProblem(error: unknown, config: OidcConfig): Error {
  if (error instanceof errors.JWTExpired) return new InvalidTokenError('The token has expired.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'nbf':
        return new InvalidTokenError('The token is not valid yet (its nbf is in the future).');
      case 'iat':
        return new InvalidTokenError('The token was issued in the future (iat).');
      case 'iss':
        return new InvalidTokenError(`The token was not issued by ${config.issuer}.`);
      case 'aud':
        return new InvalidTokenError(
          `The token is not meant for this gateway (audience ${config.audience}).`,
        );
      case 'exp':
        return new InvalidTokenError('The token has no expiry (exp); only expiring tokens are accepted.');
      default:
        return new InvalidTokenError(`The token's ${error.claim} claim is not valid.`);
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return new InvalidTokenError(
      `The token is signed with an algorithm the gateway does not accept (only ${ALLOWED_ALGORITHMS.join(', ')}).`,
    );
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new InvalidTokenError("The token's signature does not verify against the issuer's keys.");
  }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return new InvalidTokenError(
      "The token names a signing key the issuer does not publish, even after the issuer's keys were fetched again.",
    );
  }
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JOSENotSupported
  ) {
    return new InvalidTokenError('The token is malformed: it is not a signed JWT the gateway can read.');
  }
  // The key set could not be fetched (timeout, refused connection, a bad answer).
  return issuerUnavailable();
}

function actorOf(payload: JWTPayload, claim: string): string {
  const named = payload[claim];
  // Only an address the issuer vouches for names the person; anything else could be anyone's.
  if (payload.email_verified === true && usableName(named)) return `user:${named}`;
  if (usableName(payload.sub)) return `user-sub:${payload.sub}`;
  throw new InvalidTokenError(
    `The token names no user: it has no verified ${claim} (email_verified: true) and no usable sub claim.`,
  );
}

// Issued by the provider, not written by the user: held to being printable, not to the secret shapes.
function usableName(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_USER_LENGTH &&
    unprintableTextReason(value) === null
  );
}

/** The groups claim as a list of names: an array of strings, or one string. */
function groupsOf(claim: unknown): string[] {
  if (typeof claim === 'string') return [claim];
  if (!Array.isArray(claim)) return [];
  return claim.filter((group): group is string => typeof group === 'string' && group.length > 0);
}
