import { applyDecorators } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiJsonBody, ApiProblem } from '../openapi/api-problems';
import { GroupMappingListView, GroupMappingView } from './dto/group-mapping.dto';

// The same three operations for a tenant's admin (/v1/group-mappings) and for the platform
// (/v1/admin/tenants/{tenantId}/group-mappings), documented once.

/** `assignment` says how the route treats a group not assigned to the tenant. */
export const ApiCreateGroupMapping = (assignment: string): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Map a group to roles in the tenant',
      description:
        'Signed-in users whose token lists the group get these roles in the tenant (the union over all their groups), ' +
        "while the group is assigned to the tenant. Audited in the tenant's log as `group-mapping.create`." +
        assignment,
    }),
    ApiJsonBody(),
    ApiCreatedResponse({ type: GroupMappingView }),
  );

export const ApiListGroupMappings = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: "List the tenant's group mappings", description: 'Oldest first, keyset pages.' }),
    ApiOkResponse({ type: GroupMappingListView }),
  );

export const ApiDeleteGroupMapping = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Delete a group mapping',
      description:
        "The group's members lose its roles in the tenant, within 2 seconds on every replica. Audited as `group-mapping.delete`.",
    }),
    ApiNoContentResponse({ description: 'Deleted.' }),
    ApiProblem(404, '`not-found`: no such mapping in this tenant.'),
  );
