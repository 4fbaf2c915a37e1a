import { Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import { problemFor } from '../common/problem/problem';
import { validationProblem } from '../common/problem/validation';
import { GroupMappingsService } from './group-mappings.service';
import type { SignedInUser } from './oidc-verifier';

/** Turns a verified user into a principal: the tenant they act in and their roles there. */
@Injectable()
export class SignInService {
  constructor(private readonly mappings: GroupMappingsService) {}

  /**
   * The user's tenant is the one their groups are mapped into; when there are several,
   * `requestedTenant` (X-Tenant-Id) must name one of them.
   */
  async principalFor(user: SignedInUser, requestedTenant: string | null): Promise<Principal> {
    const byTenant = await this.mappings.rolesByTenant(user.groups);
    if (byTenant.size === 0) {
      throw problemFor(
        403,
        'Your sign-in is valid, but none of your groups is mapped to a role in any tenant.',
      );
    }
    let tenantId = requestedTenant;
    if (tenantId === null) {
      if (byTenant.size > 1) {
        throw validationProblem(
          [
            {
              path: 'header:X-Tenant-Id',
              message: `is required: your groups give you roles in ${byTenant.size} tenants`,
            },
          ],
          `Your groups give you roles in several tenants (${[...byTenant.keys()].sort().join(', ')}); ` +
            'say which one this call is for with X-Tenant-Id.',
        );
      }
      tenantId = [...byTenant.keys()][0];
    }
    const roles = byTenant.get(tenantId);
    if (roles === undefined) throw problemFor(403, `Your groups give you no role in tenant ${tenantId}.`);
    return {
      kind: 'user',
      tenantId,
      keyId: null,
      actor: user.actor,
      roles,
      onBehalfOf: null,
      issuer: user.issuer,
    };
  }
}
