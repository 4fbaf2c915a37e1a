import { applyDecorators, Inject, Injectable, Optional } from '@nestjs/common';
import { PROPERTY_DEPS_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ConfigService } from '@nestjs/config';
import { principalOfRequest } from '../auth/auth.decorators';
import type { TenantPrincipal } from '../auth/principal';
import { ProblemException } from '../common/problem/problem';
import type { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { ApiProblem, RETRY_AFTER } from '../openapi/api-problems';
import { noteOnActiveSpan, SPAN_ATTRIBUTES } from '../tracing/tracing';

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

  /** Slots taken now. */
  get taken(): number {
    return this.inFlight;
  }

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

  // No metrics in the CLI, which has no HTTP layer to serve them.
  constructor(config: ConfigService<AppConfig, true>, @Optional() metrics?: MetricsService) {
    this.slots = new WriteSlots(
      config.get('maxWritesInFlight', { infer: true }),
      config.get('tenantWriteShare', { infer: true }),
    );
    metrics?.countWritesInFlight(() => this.slots.taken);
  }

  /** Takes a slot or throws 503 `overloaded` with Retry-After; call the returned function when done. */
  admit(tenantId: string): () => void {
    const taken = this.slots.take(tenantId);
    // Slots are taken or refused at once, never waited for: the trace says which.
    noteOnActiveSpan(SPAN_ATTRIBUTES.writeSlot, typeof taken === 'function' ? 'taken' : taken);
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

// The controller property a write route's handler finds the process's write slots in.
const ADMISSION = 'writeAdmission';

/**
 * Whose slots a write takes: the calling tenant's (the handler takes @CurrentPrincipal()), the
 * tenant its path names (a platform route's `tenantId` parameter), or the platform's own (creating
 * a tenant, which has none yet).
 */
export type WriteSlotsOf = 'caller' | 'path' | 'platform';

/**
 * For every route that writes to the database: the handler takes a slot as it starts, after
 * authentication and the route's parameter checks, and gives it back when its work ends, failed
 * or not. A refused write costs those checks and no database or upstream work.
 */
export const LimitWritesInFlight = (of: WriteSlotsOf = 'caller'): MethodDecorator =>
  applyDecorators(
    takesWriteSlot(of),
    ApiProblem(
      503,
      '`overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its ' +
        'TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after ' +
        '`Retry-After`.',
      { 'Retry-After': RETRY_AFTER },
    ),
  );

type Handler = (this: { [ADMISSION]: WriteAdmission }, ...args: unknown[]) => Promise<unknown>;

/**
 * Wraps the handler rather than intercepting it: a Nest interceptor runs every request through
 * rxjs streams and async resources, which cost a write more CPU than the slot itself (bench/README.md).
 * The wrapper keeps the handler's name and the route metadata set on it before.
 */
function takesWriteSlot(of: WriteSlotsOf): MethodDecorator {
  return (target: object, key: string | symbol, descriptor: PropertyDescriptor): void => {
    const tenantOf = writeTenant(target.constructor as abstract new () => unknown, key, of);
    const properties = (Reflect.getMetadata(PROPERTY_DEPS_METADATA, target.constructor) ?? []) as {
      key: string;
    }[];
    if (!properties.some((property) => property.key === ADMISSION)) Inject(WriteAdmission)(target, ADMISSION);
    const handler = descriptor.value as Handler;
    const admitted: Handler = async function (...args) {
      const release = this[ADMISSION].admit(tenantOf(args));
      try {
        return await handler.apply(this, args);
      } finally {
        release();
      }
    };
    Object.defineProperty(admitted, 'name', { value: handler.name });
    for (const metadataKey of Reflect.getOwnMetadataKeys(handler)) {
      Reflect.defineMetadata(metadataKey, Reflect.getOwnMetadata(metadataKey, handler), admitted);
    }
    descriptor.value = admitted;
  };
}

// Whose slots a tenant's creation takes: no tenant id is a word.
const PLATFORM_SLOTS = 'platform';

/**
 * Where the handler finds the tenant whose slots its write takes: parameter decorators are
 * applied before method ones, so the route's parameters are known here.
 */
function writeTenant(
  controller: abstract new (...args: never[]) => unknown,
  key: string | symbol,
  of: WriteSlotsOf,
): (args: unknown[]) => string {
  if (of === 'platform') return () => PLATFORM_SLOTS;
  const parameters = Object.entries(
    (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, key) ?? {}) as Record<
      string,
      { index: number; data?: unknown; factory?: unknown }
    >,
  );
  const found =
    of === 'caller'
      ? parameters.find(([, parameter]) => parameter.factory === principalOfRequest)
      : parameters.find(
          ([type, parameter]) =>
            type.startsWith(`${RouteParamtypes.PARAM}:`) && parameter.data === 'tenantId',
        );
  if (found === undefined) {
    throw new Error(
      `${controller.name}.${String(key)} limits writes in flight but takes no ` +
        (of === 'caller' ? '@CurrentPrincipal()' : "@Param('tenantId')"),
    );
  }
  const { index } = found[1];
  return of === 'caller'
    ? (args) => (args[index] as TenantPrincipal).tenantId
    : (args) => args[index] as string;
}
