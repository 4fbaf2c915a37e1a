import { Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import type { Role } from '../auth/roles';
import { TenantsRepository } from '../tenants/tenants.repository';
import { GroupMappingsService } from '../sign-in/group-mappings.service';
import type { MeView } from './dto/me.dto';
import { RouteOperations } from './route-operations';

/** The caller as the gateway sees them: who, where they may act, and what they may call there. */
@Injectable()
export class MeService {
  constructor(
    private readonly tenants: TenantsRepository,
    private readonly mappings: GroupMappingsService,
    private readonly operations: RouteOperations,
  ) {}

  async describe(principal: Principal): Promise<MeView> {
    const rolesByTenant = await this.rolesByTenant(principal);
    const tenants = rolesByTenant.size === 0 ? [] : await this.tenants.named([...rolesByTenant.keys()]);
    return {
      kind: principal.kind,
      actor: principal.actor,
      tenants: tenants.map(({ id, name }) => {
        const roles = rolesByTenant.get(id)!;
        return { id, name, roles, operations: this.operations.inTenant(roles) };
      }),
      operations: this.operations.outsideTenants(principal.kind === 'platform'),
    };
  }

  private async rolesByTenant(principal: Principal): Promise<Map<string, Role[]>> {
    switch (principal.kind) {
      case 'key':
        return new Map([[principal.tenantId!, [...principal.roles]]]);
      case 'user':
        return this.mappings.rolesByTenant(principal.groups ?? []);
      case 'platform':
        return new Map();
    }
  }
}
