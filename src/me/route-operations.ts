import { Injectable } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { ACCESS_METADATA, type Access } from '../auth/auth.decorators';
import { grantsAny, type Role } from '../auth/roles';

// Where @ApiOperation keeps its options (@nestjs/swagger does not export its metadata keys).
const API_OPERATION_METADATA = 'swagger/apiOperation';

interface RouteOperation {
  operationId: string;
  access: Access;
}

/**
 * The OpenAPI operationId of every route with the access rule the auth guard enforces on it, both
 * read from the controllers' own metadata, so what a caller is told it may call cannot drift from
 * what the guard lets through.
 */
@Injectable()
export class RouteOperations {
  private routes: RouteOperation[] | null = null;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
  ) {}

  /** The operations a holder of `roles` may call in a tenant, sorted. */
  inTenant(roles: readonly Role[]): string[] {
    return this.all()
      .filter(({ access }) => access.kind === 'role' && grantsAny(roles, access.roles))
      .map(({ operationId }) => operationId);
  }

  /** The operations that need no tenant: those about the caller, and the platform's for the platform token. */
  outsideTenants(platform: boolean): string[] {
    return this.all()
      .filter(({ access }) => access.kind === 'caller' || (platform && access.kind === 'platform'))
      .map(({ operationId }) => operationId);
  }

  private all(): RouteOperation[] {
    this.routes ??= this.discover();
    return this.routes;
  }

  private discover(): RouteOperation[] {
    const routes: RouteOperation[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        if (!Reflect.hasMetadata(PATH_METADATA, handler)) continue;
        const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS_METADATA, [
          handler,
          controller,
        ]);
        if (access === undefined || access.kind === 'public') continue;
        // As @nestjs/swagger names an operation unless @ApiOperation gives it an id.
        const declared = (Reflect.getMetadata(API_OPERATION_METADATA, handler) ?? {}) as {
          operationId?: string;
        };
        routes.push({ operationId: declared.operationId ?? `${controller.name}_${name}`, access });
      }
    }
    return routes.sort((a, b) => (a.operationId < b.operationId ? -1 : 1));
  }
}
