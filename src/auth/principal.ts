import type { Role } from './roles';

/** Who is calling: resolved by the auth guard and attached to the request. */
export interface Principal {
  kind: 'key' | 'platform';
  /** The tenant the key belongs to; null for the platform operator. */
  tenantId: string | null;
  keyId: string | null;
  /** Identity recorded in history and audit, e.g. `key:<id>` or `platform`. */
  actor: string;
  roles: readonly Role[];
  /** The person a frontend acts for (`X-On-Behalf-Of`), recorded beside the actor. */
  onBehalfOf: string | null;
}

/** A principal that belongs to a tenant (every route but the platform's). */
export interface TenantPrincipal extends Principal {
  tenantId: string;
}

export interface Actor {
  actor: string;
  onBehalfOf: string | null;
  keyId: string | null;
  requestId: string;
}
