import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { AppConfig } from '../config/app-config';
import { ProblemException } from '../common/problem/problem';
import { onBehalfOfHeader } from '../common/request-headers';
import { matchesDigest, sha256 } from '../crypto/hashing';
import { Access, ACCESS_METADATA, AuthenticatedRequest } from './auth.decorators';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { KeysService } from './keys.service';
import type { Principal } from './principal';
import { grants } from './roles';

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

/**
 * Every route declares who may call it (@Public, @PlatformOnly or @RequireRole); a route that
 * declares nothing is refused, so forgetting a decorator fails closed.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly adminTokenHash: Buffer | null;

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: KeysService,
    private readonly rateLimits: RateLimitService,
    config: ConfigService<AppConfig, true>,
  ) {
    const adminToken = config.get('adminToken', { infer: true });
    this.adminTokenHash = adminToken ? sha256(adminToken) : null;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (access?.kind === 'public') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!access) throw forbidden('This route is not open to any caller.');

    // An address that keeps failing is refused before its next guess is even checked.
    await this.rateLimits.check('failedAuth', request.ip);
    const token = bearerToken(request.headers.authorization);
    if (token === null) throw unauthenticated('Send a gateway key as "Authorization: Bearer <key>".');
    const onBehalfOf = onBehalfOfHeader(request.headers['x-on-behalf-of'], request.raw.rawHeaders);

    if (access.kind === 'platform') {
      if (this.adminTokenHash === null)
        throw forbidden('Platform administration is disabled (GATEWAY_ADMIN_TOKEN is not set).');
      if (!matchesDigest(token, this.adminTokenHash)) {
        await this.failedAttempt(request.ip);
        throw unauthenticated('The platform token is not valid.');
      }
      request.principal = {
        kind: 'platform',
        tenantId: null,
        keyId: null,
        actor: 'platform',
        roles: [],
        onBehalfOf,
      };
      return true;
    }

    const key = await this.keys.authenticate(token);
    if (!key) {
      await this.failedAttempt(request.ip);
      throw unauthenticated('The gateway key is not valid or has been revoked.');
    }
    await this.rateLimits.consume('perKey', key.id);
    // Keys are cheap to issue: the tenant's total is capped too.
    await this.rateLimits.consume('perTenant', key.tenantId);
    const principal: Principal = {
      kind: 'key',
      tenantId: key.tenantId,
      keyId: key.id,
      actor: `key:${key.id}`,
      roles: key.roles,
      onBehalfOf,
    };
    request.principal = principal;
    if (!grants(key.roles, access.role)) {
      throw forbidden(`This key's roles (${key.roles.join(', ')}) do not include ${access.role}.`);
    }
    return true;
  }

  private async failedAttempt(address: string): Promise<void> {
    await this.rateLimits.consume('failedAuth', address);
  }
}

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}
