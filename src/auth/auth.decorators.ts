import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Actor, Principal, TenantPrincipal } from './principal';
import type { Role } from './roles';

export const ACCESS_METADATA = 'pipes-gateway:access';

export type Access = { kind: 'public' } | { kind: 'platform' } | { kind: 'role'; role: Role };

/** No authentication (health, metrics, docs). */
export const Public = (): MethodDecorator & ClassDecorator =>
  SetMetadata(ACCESS_METADATA, { kind: 'public' });
// Every authenticated route reads it (the auth guard), so it is documented with the access rule.
const onBehalfOfDocs = ApiHeader({
  name: 'X-On-Behalf-Of',
  required: false,
  description:
    'The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 ' +
    'characters (UTF-8) without control characters.',
});

/** Only the platform operator (GATEWAY_ADMIN_TOKEN). */
export const PlatformOnly = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(ACCESS_METADATA, { kind: 'platform' }), onBehalfOfDocs);
/** A gateway key whose roles grant `role`. */
export const RequireRole = (role: Role): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(ACCESS_METADATA, { kind: 'role', role }), onBehalfOfDocs);

export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): TenantPrincipal => {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    return request.principal as TenantPrincipal;
  },
);

/** The identity that history and audit record for this request. */
export const CurrentActor = createParamDecorator((_data: unknown, context: ExecutionContext): Actor => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  const principal = request.principal;
  return {
    actor: principal?.actor ?? 'anonymous',
    onBehalfOf: principal?.onBehalfOf ?? null,
    keyId: principal?.keyId ?? null,
    requestId: String(request.id),
  };
});
