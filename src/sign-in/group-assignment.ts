import type { AuditEntry } from '../audit/audit.service';
import { defaultSlugAndTitle, ProblemException } from '../common/problem/problem';
import type { TenantGroup } from '../generated/prisma/client';

/**
 * The rule that keeps tenants apart: which identity-provider groups belong to which tenant is the
 * platform's decision, and a tenant's admin maps roles only to its own groups. The answer does not
 * say whether another tenant has the group.
 */
export function groupNotAssigned(group: string, tenantId: string): ProblemException {
  return new ProblemException({
    status: 403,
    type: 'group-not-assigned',
    title: 'Group not assigned to this tenant',
    detail:
      `The group "${group}" is not assigned to this tenant: a tenant maps roles only to its own groups, and ` +
      `the platform operator assigns them (POST /v1/admin/tenants/${tenantId}/groups).`,
  });
}

/** A group is assigned to one tenant at most: the 409 names the tenant that has it. */
export function assignedElsewhere(group: string, owner: TenantGroup): ProblemException {
  const [type, title] = defaultSlugAndTitle(409);
  return new ProblemException({
    status: 409,
    type,
    title,
    detail:
      `The group "${group}" is assigned to tenant ${owner.tenantId} (assignment ${owner.id}); ` +
      'unassign it there first.',
    tenantId: owner.tenantId,
  });
}

/** The audit entry of `group` assigned to the tenant as assignment `id`. */
export function groupAssigned(tenantId: string, id: string, group: string): AuditEntry {
  return {
    tenantId,
    action: 'group.assign',
    target: `group:${id}`,
    outcome: 'succeeded',
    httpStatus: 201,
    details: { group },
  };
}
