import { randomUUID } from 'node:crypto';

/**
 * Faults a simulator can be told to produce, so the gateway's handling of a misbehaving upstream can
 * be exercised on demand. Each fault may be limited to a method and/or a path prefix and to a number
 * of matching calls (`times`); without `times` it applies to every matching call until removed.
 */
export type FaultEffect =
  /** Waits this long before the call is answered (or before another fault takes effect). */
  | { kind: 'latency'; ms: number }
  /** Answers with this status; without `body` the simulator's own error body for that status is used. */
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Answers the way the simulator's own rate limiter does, telling the client to wait this long. */
  | { kind: 'rateLimit'; retryAfterSeconds?: number }
  /** Resets the TCP connection instead of answering. */
  | { kind: 'reset' }
  /** Never answers; the connection stays open until the client gives up or the simulator closes. */
  | { kind: 'hang' }
  /** Answers 200 with a JSON content type and a body that is not valid JSON. */
  | { kind: 'malformedBody' }
  /**
   * Answers 200 with a JSON object of `bytes` bytes (LARGE_BODY_FRAME), written as the client
   * reads it, never held whole; with `announce`, a Content-Length says its size up front.
   */
  | { kind: 'largeBody'; bytes: number; announce?: boolean }
  /** Handles the call normally but echoes the secrets it was sent back in the response. */
  | { kind: 'echoSecrets' };

export interface FaultScope {
  /** Only calls with this HTTP method (any case). */
  method?: string;
  /** Only calls whose path starts with this prefix. */
  pathPrefix?: string;
  /** Only this many matching calls; omitted means every matching call until the fault is removed. */
  times?: number;
}

export type FaultSpec = FaultEffect & FaultScope;

/** A fault in force: its spec plus an id to remove it by and how many calls it still applies to. */
export type ActiveFault = FaultSpec & { id: string; remaining: number | null };

/** Faults that decide the whole answer; at most one applies to a call. */
export type OutcomeFault = Extract<
  FaultEffect,
  { kind: 'status' | 'rateLimit' | 'reset' | 'hang' | 'malformedBody' | 'largeBody' }
>;

/** What the faults in force do to one call. */
export interface FaultPlan {
  latencyMs: number;
  outcome: OutcomeFault | null;
  echoSecrets: boolean;
}

export class FaultSpecError extends Error {}

/** What a largeBody answer is made of: both upstreams' envelopes, and a run of `x` in `pad`. */
export const LARGE_BODY_FRAME = '{"result":{},"data":{},"pad":""}';

const FAULT_KINDS = new Set<FaultEffect['kind']>([
  'latency',
  'status',
  'rateLimit',
  'reset',
  'hang',
  'malformedBody',
  'largeBody',
  'echoSecrets',
]);

export class FaultInjector {
  private faults: ActiveFault[] = [];

  /** Adds faults after checking them, so a typo over HTTP is reported instead of silently ignored. */
  add(...specs: FaultSpec[]): ActiveFault[] {
    const added = specs.map((spec) => {
      const checked = checkFaultSpec(spec);
      return { ...checked, id: randomUUID(), remaining: checked.times ?? null };
    });
    this.faults.push(...added);
    return added.map(copyFault);
  }

  list(): ActiveFault[] {
    return this.faults.map(copyFault);
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((fault) => fault.id !== id);
    return this.faults.length < before;
  }

  clear(): void {
    this.faults = [];
  }

  /**
   * Consumes the faults that apply to one call. Every matching latency and echo fault counts the
   * call; only the oldest matching outcome fault does, so queued outcomes play out one call at a time.
   */
  take(method: string, path: string): FaultPlan {
    const plan: FaultPlan = { latencyMs: 0, outcome: null, echoSecrets: false };
    for (const fault of this.faults) {
      if (!appliesTo(fault, method, path)) continue;
      if (fault.kind === 'latency') plan.latencyMs += fault.ms;
      else if (fault.kind === 'echoSecrets') plan.echoSecrets = true;
      else if (plan.outcome === null) plan.outcome = outcomeOf(fault);
      else continue;
      if (fault.remaining !== null) fault.remaining -= 1;
    }
    this.faults = this.faults.filter((fault) => fault.remaining === null || fault.remaining > 0);
    return plan;
  }
}

function appliesTo(fault: ActiveFault, method: string, path: string): boolean {
  if (fault.method !== undefined && fault.method.toUpperCase() !== method.toUpperCase()) return false;
  return fault.pathPrefix === undefined || path.startsWith(fault.pathPrefix);
}

function outcomeOf(fault: ActiveFault): OutcomeFault {
  switch (fault.kind) {
    case 'status':
      return { kind: 'status', status: fault.status, body: fault.body, headers: fault.headers };
    case 'rateLimit':
      return { kind: 'rateLimit', retryAfterSeconds: fault.retryAfterSeconds };
    case 'largeBody':
      return { kind: 'largeBody', bytes: fault.bytes, announce: fault.announce };
    case 'reset':
    case 'hang':
    case 'malformedBody':
      return { kind: fault.kind };
    default:
      throw new Error(`${fault.kind} is not an outcome fault`);
  }
}

function copyFault(fault: ActiveFault): ActiveFault {
  return structuredClone(fault);
}

/** Checks a spec that may have arrived as untyped JSON; throws FaultSpecError naming the problem. */
export function checkFaultSpec(value: unknown): FaultSpec {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FaultSpecError('a fault must be a JSON object');
  }
  const spec = value as Record<string, unknown>;
  const kind = spec.kind;
  if (typeof kind !== 'string' || !FAULT_KINDS.has(kind as FaultEffect['kind'])) {
    throw new FaultSpecError(`kind must be one of ${[...FAULT_KINDS].join(', ')}`);
  }
  optional(spec, 'method', (v) => typeof v === 'string' && v.length > 0, 'a method name');
  optional(spec, 'pathPrefix', (v) => typeof v === 'string' && v.startsWith('/'), 'a path starting with /');
  optional(spec, 'times', (v) => Number.isInteger(v) && (v as number) > 0, 'a whole number above 0');
  switch (kind) {
    case 'latency':
      required(spec, 'ms', (v) => Number.isInteger(v) && (v as number) >= 0, 'a whole number of ms');
      break;
    case 'status':
      required(
        spec,
        'status',
        (v) => Number.isInteger(v) && (v as number) >= 200 && (v as number) <= 599,
        'an HTTP status from 200 to 599',
      );
      optional(spec, 'headers', isStringRecord, 'an object of string header values');
      break;
    case 'largeBody':
      required(
        spec,
        'bytes',
        (v) => Number.isSafeInteger(v) && (v as number) >= LARGE_BODY_FRAME.length,
        `a whole number of bytes, at least ${LARGE_BODY_FRAME.length}`,
      );
      optional(spec, 'announce', (v) => typeof v === 'boolean', 'true or false');
      break;
    case 'rateLimit':
      optional(
        spec,
        'retryAfterSeconds',
        (v) => Number.isInteger(v) && (v as number) >= 0,
        'a whole number of seconds',
      );
      break;
  }
  return structuredClone(value as FaultSpec);
}

function required(
  spec: Record<string, unknown>,
  name: string,
  valid: (v: unknown) => boolean,
  what: string,
): void {
  if (!valid(spec[name])) throw new FaultSpecError(`${String(spec.kind)} fault: ${name} must be ${what}`);
}

function optional(
  spec: Record<string, unknown>,
  name: string,
  valid: (v: unknown) => boolean,
  what: string,
): void {
  if (spec[name] !== undefined) required(spec, name, valid, what);
}

function isStringRecord(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((inner) => typeof inner === 'string')
  );
}
