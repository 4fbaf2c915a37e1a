import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { finalize, Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { ProblemException } from '../common/problem/problem';
import type { AppConfig } from '../config/app-config';
import { ApiProblem, RETRY_AFTER } from '../openapi/api-problems';

/**
 * The process's write slots (MAX_WRITES_IN_FLIGHT), shared fairly between tenants. Each tenant is
 * guaranteed its share (TENANT_WRITE_SHARE): below it, a write takes any free slot. Beyond it, a
 * write takes a slot only while enough stay free for every other tenant with writes in flight to
 * reach its share, and for one tenant more; so a tenant whose writes pile up on a slow upstream
 * can hold at most the slots nobody else may need, never another tenant's share.
 *
 * Writes past the limit are refused at once rather than queued: each waiting write holds its spec,
 * history record and audit events, so a queue grows memory and latency.
 */
export class WriteSlots {
  private inFlight = 0;
  private readonly byTenant = new Map<string, number>();
  // Σ over tenants with writes in flight of the part of their share they do not use.
  private unusedShares = 0;

  constructor(
    readonly limit: number,
    readonly share: number,
  ) {}

  /** Takes a slot for `tenantId`: the function that gives it back, or the reason there is none. */
  take(tenantId: string): (() => void) | 'full' | 'over-share' {
    const own = this.byTenant.get(tenantId) ?? 0;
    const free = this.limit - this.inFlight;
    if (free <= 0) return 'full';
    if (own >= this.share && free - 1 < this.unusedShares + this.share) return 'over-share';
    this.count(tenantId, own, own + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = this.byTenant.get(tenantId)!;
      this.count(tenantId, now, now - 1);
    };
  }

  private count(tenantId: string, before: number, after: number): void {
    this.inFlight += after - before;
    this.unusedShares += this.unused(after) - this.unused(before);
    if (after === 0) this.byTenant.delete(tenantId);
    else this.byTenant.set(tenantId, after);
  }

  private unused(held: number): number {
    return held === 0 ? 0 : Math.max(0, this.share - held);
  }
}

/** The write slots of this process, as configured. */
@Injectable()
export class WriteAdmission {
  private readonly slots: WriteSlots;

  constructor(config: ConfigService<AppConfig, true>) {
    this.slots = new WriteSlots(
      config.get('maxWritesInFlight', { infer: true }),
      config.get('tenantWriteShare', { infer: true }),
    );
  }

  /** Takes a slot or throws 503 `overloaded` with Retry-After; call the returned function when done. */
  admit(tenantId: string): () => void {
    const taken = this.slots.take(tenantId);
    if (typeof taken === 'function') return taken;
    throw new ProblemException({
      status: 503,
      type: 'overloaded',
      title: 'Gateway overloaded',
      detail:
        taken === 'full'
          ? `This gateway process is already running ${this.slots.limit} writes, its limit; nothing was done. Retry after 1 s.`
          : `This tenant already runs more than its share of ${this.slots.share} writes in this gateway process, ` +
            'and the rest is kept for other tenants; nothing was done. Retry after 1 s.',
      headers: { 'retry-after': '1' },
    });
  }
}

/** Refuses the request with 503 when its tenant may not start another write in this process. */
@Injectable()
export class WriteAdmissionInterceptor implements NestInterceptor {
  constructor(private readonly admission: WriteAdmission) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const release = this.admission.admit(request.principal?.tenantId ?? 'platform');
    return next.handle().pipe(finalize(release));
  }
}

/**
 * For routes whose write waits on the audit chain and an upstream. Runs after authentication, so
 * a caller without a valid key still gets 401, and before validation: a refused write costs its
 * body's parse and no database or upstream work.
 */
export const LimitWritesInFlight = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    UseInterceptors(WriteAdmissionInterceptor),
    ApiProblem(
      503,
      '`overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its ' +
        'TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after ' +
        '`Retry-After`.',
      { 'Retry-After': RETRY_AFTER },
    ),
  );
