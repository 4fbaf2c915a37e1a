import type { Role } from './roles';

/** Who is calling: resolved by the auth guard and attached to the request. */
export interface Principal {
  /** A gateway key, the platform token, or a person signed in with the OIDC issuer's token. */
  kind: 'key' | 'platform' | 'user';
  /** The tenant the key belongs to or the user acts in; null for the platform operator. */
  tenantId: string | null;
  keyId: string | null;
  /** Identity recorded in history and audit, in one of the forms of actors.ts. */
  actor: string;
  roles: readonly Role[];
  /** The person a frontend acts for (`X-On-Behalf-Of`), recorded beside the actor. */
  onBehalfOf: string | null;
  /** For a key: whether it may act for people (`X-On-Behalf-Of`), and so issue keys that may. */
  delegate?: boolean;
  /** For a user: the issuer that vouched for them, recorded with their audit events. */
  issuer?: string;
  /** For a user: the groups their token lists, which group mappings turn into roles per tenant. */
  groups?: readonly string[];
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
  /** Set for signed-in users: the token's issuer. */
  issuer?: string;
}

/** Who made a row, as its `createdBy` records it. */
export function createdByOf(actor: Actor): string {
  return actor.onBehalfOf ? `${actor.actor} for ${actor.onBehalfOf}` : actor.actor;
}
