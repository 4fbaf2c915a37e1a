import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Actor, Principal, TenantPrincipal } from './principal';
import type { Role } from './roles';

export const ACCESS_METADATA = 'pipes-gateway:access';

export type Access = { kind: 'public' } | { kind: 'platform' } | { kind: 'role'; role: Role };

/** No authentication (health, metrics, docs). */
export const Public = (): MethodDecorator & ClassDecorator =>
  SetMetadata(ACCESS_METADATA, { kind: 'public' });
/** Only the platform operator (GATEWAY_ADMIN_TOKEN). */
export const PlatformOnly = (): MethodDecorator & ClassDecorator =>
  SetMetadata(ACCESS_METADATA, { kind: 'platform' });
/** A gateway key whose roles grant `role`. */
export const RequireRole = (role: Role): MethodDecorator & ClassDecorator =>
  SetMetadata(ACCESS_METADATA, { kind: 'role', role });

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
