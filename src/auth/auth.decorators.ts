import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { ApiHeader, ApiSecurity } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Actor, Principal, TenantPrincipal } from './principal';
import type { Role } from './roles';
import { ApiAuthenticationProblems } from '../openapi/api-problems';

export const ACCESS_METADATA = 'pipes-gateway:access';

export type Access =
  | { kind: 'public' }
  | { kind: 'platform' }
  // Open to a holder of any of `roles` (each with the roles it implies).
  | { kind: 'role'; roles: readonly Role[] }
  // Any valid credential (a key, a user's token, the platform token), in no tenant in particular.
  | { kind: 'caller' };

/** The access rule a route declares, on its handler or else its controller; undefined when none. */
export function declaredAccess(reflector: Reflector, context: ExecutionContext): Access | undefined {
  return reflector.getAllAndOverride<Access | undefined>(ACCESS_METADATA, [
    context.getHandler(),
    context.getClass(),
  ]);
}

/** No authentication (health, metrics, docs). */
export const Public = (): MethodDecorator & ClassDecorator =>
  SetMetadata(ACCESS_METADATA, { kind: 'public' });
// The names of the OpenAPI security schemes (bootstrap.ts declares them).
export const GATEWAY_KEY_SCHEME = 'gateway-key';
export const PLATFORM_TOKEN_SCHEME = 'platform-token';
export const OIDC_SCHEME = 'oidc';

// Every authenticated route reads these (the auth guard), so they are documented with the access rule.
const onBehalfOfDocs = ApiHeader({
  name: 'X-On-Behalf-Of',
  required: false,
  description:
    'The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 ' +
    'characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret ' +
    '(a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded ' +
    'instead, and (403) with a key issued with `delegate: false`.',
});
const tenantIdDocs = ApiHeader({
  name: 'X-Tenant-Id',
  required: false,
  description:
    'With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). ' +
    'A key acts in its own tenant; naming another is refused with 403.',
});
/** Only the platform operator (GATEWAY_ADMIN_TOKEN). */
export const PlatformOnly = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(ACCESS_METADATA, { kind: 'platform' }),
    ApiSecurity(PLATFORM_TOKEN_SCHEME),
    onBehalfOfDocs,
    ApiAuthenticationProblems(
      '`forbidden`: platform administration is off (GATEWAY_ADMIN_TOKEN is not set).',
    ),
  );
/**
 * A gateway key or a signed-in user whose roles grant one of `roles` (bootstrap.ts adds the user
 * token scheme). More than one names a route that roles standing apart may both call.
 */
export const RequireRole = (...roles: [Role, ...Role[]]): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(ACCESS_METADATA, { kind: 'role', roles }),
    ApiSecurity(GATEWAY_KEY_SCHEME),
    onBehalfOfDocs,
    tenantIdDocs,
    ApiAuthenticationProblems(
      `\`forbidden\`: the caller's roles do not include ${roles.join(' or ')}, a user's groups give no role in the tenant, ` +
        "X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of.",
    ),
  );

/**
 * Any caller with a valid credential: a gateway key, a signed-in user's token (whatever tenants their
 * groups reach, none needed) or the platform token. For routes about the caller themself.
 */
export const AnyCaller = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(ACCESS_METADATA, { kind: 'caller' }),
    ApiSecurity(GATEWAY_KEY_SCHEME),
    ApiSecurity(PLATFORM_TOKEN_SCHEME),
    onBehalfOfDocs,
    ApiAuthenticationProblems(
      "`forbidden`: X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of.",
    ),
  );

export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

/** What @CurrentPrincipal() gives a handler; its route metadata names it as its factory. */
export function principalOfRequest(_data: unknown, context: ExecutionContext): TenantPrincipal {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  return request.principal as TenantPrincipal;
}

export const CurrentPrincipal = createParamDecorator(principalOfRequest);

/** The identity that history and audit record for this request. */
export const CurrentActor = createParamDecorator((_data: unknown, context: ExecutionContext): Actor => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  const principal = request.principal;
  return {
    actor: principal?.actor ?? 'anonymous',
    onBehalfOf: principal?.onBehalfOf ?? null,
    keyId: principal?.keyId ?? null,
    requestId: String(request.id),
    ...(principal?.issuer ? { issuer: principal.issuer } : {}),
  };
});
