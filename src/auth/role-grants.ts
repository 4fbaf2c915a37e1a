import { ProblemException } from '../common/problem/problem';
import { ApiProblem } from '../openapi/api-problems';
import type { Principal } from './principal';
import { grants, type Role } from './roles';

/** Who gives roles to a new key or group mapping: the caller, by its kind and the roles it holds. */
export type Grantor = Pick<Principal, 'kind' | 'roles' | 'delegate'>;

/** The platform operator (GATEWAY_ADMIN_TOKEN) and the CLI, which may grant every role. */
export const PLATFORM_GRANTOR: Grantor = { kind: 'platform', roles: [] };

/** How a refusal names the roles `principal` holds. */
export function heldRoles(principal: Grantor): string {
  const whose = principal.kind === 'user' ? 'Your roles in this tenant' : "This key's roles";
  return `${whose} (${principal.roles.join(', ')})`;
}

/**
 * Refuses (403) to grant a role the grantor does not hold itself, so a key or person can never
 * make a key or mapping that does more than it can: an admin holds operator and viewer as well,
 * never auditor. The platform grants any role.
 */
export function assertMayGrant(grantor: Grantor, roles: readonly Role[]): void {
  if (grantor.kind === 'platform') return;
  const lacking = roles.filter((role) => !grants(grantor.roles, role));
  if (lacking.length === 0) return;
  throw new ProblemException({
    status: 403,
    type: 'forbidden',
    title: 'Forbidden',
    detail: `${heldRoles(grantor)} do not include ${lacking.join(', ')}: only roles the caller holds can be granted.`,
  });
}

/**
 * Refuses (403) a key issued with `delegate: false` issuing a key that may act for people: it
 * would give itself the X-On-Behalf-Of its own issuer withheld.
 */
export function assertMayDelegate(grantor: Grantor, delegate: boolean): void {
  if (!delegate || grantor.kind !== 'key' || grantor.delegate !== false) return;
  throw new ProblemException({
    status: 403,
    type: 'forbidden',
    title: 'Forbidden',
    detail:
      'This key was issued with delegate: false, so the keys it issues may not act for people either: send delegate: false.',
  });
}

/** The 403 of a route that grants roles to callers' keys or groups. */
export const ApiRoleGrantProblem = (more = ''): MethodDecorator =>
  ApiProblem(
    403,
    '`forbidden`: `roles` names a role the caller does not hold itself (an admin holds operator and viewer too, ' +
      `never auditor); the detail names each.${more}`,
  );
