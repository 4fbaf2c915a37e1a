import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { AppConfig } from '../config/app-config';
import { ProblemException } from '../common/problem/problem';
import { validationProblem } from '../common/problem/validation';
import { onBehalfOfHeader, tenantIdHeader } from '../common/request-headers';
import { matchesDigest, sha256 } from '../crypto/hashing';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { InvalidTokenError, OidcVerifier, type SignedInUser } from '../sign-in/oidc-verifier';
import { SignInService } from '../sign-in/sign-in.service';
import { noteOnRequest, SPAN_ATTRIBUTES, tracingOn } from '../tracing/tracing';
import { Access, AuthenticatedRequest, declaredAccess } from './auth.decorators';
import { gatewayKeyPrefix } from './gateway-key';
import { KeysService } from './keys.service';
import type { Principal } from './principal';
import { heldRoles } from './role-grants';
import { grantsAny } from './roles';

function unauthenticated(detail: string): ProblemException {
  return new ProblemException({
    status: 401,
    type: 'unauthenticated',
    title: 'Authentication required',
    detail,
    headers: { 'www-authenticate': 'Bearer' },
  });
}

function forbidden(detail: string): ProblemException {
  return new ProblemException({ status: 403, type: 'forbidden', title: 'Forbidden', detail });
}

const PLATFORM_TOKEN_NEEDED = 'This route needs the platform token (GATEWAY_ADMIN_TOKEN)';

/**
 * Every route declares who may call it (@Public, @PlatformOnly, @RequireRole or @AnyCaller); a route that
 * declares nothing is refused, so forgetting a decorator fails closed. Callers present a gateway
 * key, the platform token, or (with OIDC_ISSUER set) a signed-in user's token.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly adminTokenHash: Buffer | null;
  // Each route's rule, read from its metadata once rather than on every call.
  private readonly accessByHandler = new WeakMap<object, Access | null>();

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: KeysService,
    private readonly rateLimits: RateLimitService,
    private readonly oidc: OidcVerifier,
    private readonly signIn: SignInService,
    config: ConfigService<AppConfig, true>,
  ) {
    const adminToken = config.get('adminToken', { infer: true });
    this.adminTokenHash = adminToken ? sha256(adminToken) : null;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.accessOf(context);
    if (access?.kind === 'public') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!access) throw forbidden('This route is not open to any caller.');

    const token = bearerToken(request.headers.authorization);
    if (token === null) {
      throw unauthenticated(
        access.kind === 'platform'
          ? `${PLATFORM_TOKEN_NEEDED} as "Authorization: Bearer <token>".`
          : this.oidc.enabled
            ? 'Send a gateway key or a user token as "Authorization: Bearer <credential>".'
            : 'Send a gateway key as "Authorization: Bearer <key>".',
      );
    }
    if (access.kind === 'platform') {
      admit(request, await this.platform(token, request));
      return true;
    }
    if (access.kind === 'caller') {
      admit(request, await this.anyCaller(token, request));
      return true;
    }
    // Gateway keys say what they are; with sign-in on, anything else is taken for a user's token.
    const principal =
      this.oidc.enabled && !token.startsWith('pgw_')
        ? await this.user(token, request)
        : await this.key(token, request);
    admit(request, principal);
    if (!grantsAny(principal.roles, access.roles)) {
      throw forbidden(`${heldRoles(principal)} do not include ${access.roles.join(' or ')}.`);
    }
    return true;
  }

  private accessOf(context: ExecutionContext): Access | null {
    const handler = context.getHandler();
    let access = this.accessByHandler.get(handler);
    if (access === undefined) {
      access = declaredAccess(this.reflector, context) ?? null;
      this.accessByHandler.set(handler, access);
    }
    return access;
  }

  private async platform(token: string, request: AuthenticatedRequest): Promise<Principal> {
    if (this.adminTokenHash === null)
      throw forbidden('Platform administration is disabled (GATEWAY_ADMIN_TOKEN is not set).');
    if (!matchesDigest(token, this.adminTokenHash)) {
      return this.refuse(
        request,
        'platform',
        `${PLATFORM_TOKEN_NEEDED}; the credential sent is not it (gateway keys and user tokens are not taken here).`,
      );
    }
    return {
      kind: 'platform',
      tenantId: null,
      keyId: null,
      actor: 'platform',
      roles: [],
      onBehalfOf: onBehalfOf(request),
    };
  }

  private async key(token: string, request: AuthenticatedRequest): Promise<Principal> {
    const key = await this.keys.authenticate(token);
    if (!key) {
      return this.refuse(
        request,
        gatewayKeyPrefix(token),
        'The gateway key is not valid or has been revoked.',
      );
    }
    const tenant = tenantIdHeader(request.headers['x-tenant-id']);
    if (tenant !== null && tenant !== key.tenantId) {
      throw forbidden('This key belongs to another tenant than the one X-Tenant-Id names.');
    }
    const person = onBehalfOf(request);
    if (person !== null && !key.delegate) {
      throw forbidden(
        'This key was issued with delegate: false: it may not act for people (X-On-Behalf-Of).',
      );
    }
    await this.rateLimits.consume('perKey', key.id);
    // Keys are cheap to issue: the tenant's total is capped too.
    await this.rateLimits.consume('perTenant', key.tenantId);
    return {
      kind: 'key',
      tenantId: key.tenantId,
      keyId: key.id,
      actor: `key:${key.id}`,
      roles: key.roles,
      onBehalfOf: person,
      delegate: key.delegate,
    };
  }

  /**
   * Whoever the credential names, without choosing a tenant: a user is admitted whatever their
   * groups give (none included), so they can be told where they stand.
   */
  private async anyCaller(token: string, request: AuthenticatedRequest): Promise<Principal> {
    if (!token.startsWith('pgw_')) {
      if (this.adminTokenHash !== null && matchesDigest(token, this.adminTokenHash)) {
        return this.platform(token, request);
      }
      if (this.oidc.enabled) {
        const user = await this.verifiedUser(token, request);
        await this.rateLimits.consume('perKey', `${user.issuer} ${user.actor}`);
        return {
          kind: 'user',
          tenantId: null,
          keyId: null,
          actor: user.actor,
          roles: [],
          onBehalfOf: null,
          issuer: user.issuer,
          groups: user.groups,
        };
      }
    }
    return this.key(token, request);
  }

  private async user(token: string, request: AuthenticatedRequest): Promise<Principal> {
    const user = await this.verifiedUser(token, request);
    const principal = await this.signIn.principalFor(user, tenantIdHeader(request.headers['x-tenant-id']));
    // The per-key limit is each person's limit here.
    await this.rateLimits.consume('perKey', `${user.issuer} ${user.actor}`);
    await this.rateLimits.consume('perTenant', principal.tenantId!);
    return principal;
  }

  private async verifiedUser(token: string, request: AuthenticatedRequest): Promise<SignedInUser> {
    let user;
    try {
      user = await this.oidc.verify(token);
    } catch (error) {
      if (error instanceof InvalidTokenError) return this.refuse(request, null, error.message);
      throw error;
    }
    if (request.headers['x-on-behalf-of'] !== undefined) {
      throw validationProblem(
        [{ path: 'header:X-On-Behalf-Of', message: 'is refused with a user token' }],
        'X-On-Behalf-Of is refused with a user token: the signed-in user is recorded as the actor.',
      );
    }
    return user;
  }

  /**
   * A credential that did not verify: counted against the address and the credential it named,
   * then 401, or 429 once either has failed too often. Nothing of the credential is logged.
   */
  private async refuse(
    request: AuthenticatedRequest,
    credential: string | null,
    detail: string,
  ): Promise<never> {
    await this.rateLimits.failedAuthentication(request.ip, credential);
    throw unauthenticated(detail);
  }
}

/** The caller, for the handler and for the request's trace: its kind and tenant, never who it is. */
function admit(request: AuthenticatedRequest, principal: Principal): void {
  request.principal = principal;
  if (!tracingOn()) return;
  noteOnRequest(
    request.raw,
    principal.tenantId === null
      ? { [SPAN_ATTRIBUTES.callerKind]: principal.kind }
      : { [SPAN_ATTRIBUTES.callerKind]: principal.kind, [SPAN_ATTRIBUTES.tenant]: principal.tenantId },
  );
}

function onBehalfOf(request: AuthenticatedRequest): string | null {
  return onBehalfOfHeader(request.headers['x-on-behalf-of'], request.raw.rawHeaders);
}

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}
