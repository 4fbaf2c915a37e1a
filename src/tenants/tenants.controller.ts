import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentActor, CurrentPrincipal, PlatformOnly } from '../auth/auth.decorators';
import { CreatedGatewayKeyView, CreateGatewayKeyDto } from '../auth/dto/gateway-key.dto';
import { KeysService } from '../auth/keys.service';
import type { Actor, Principal } from '../auth/principal';
import { PageQueryDto, type Page } from '../common/pagination';
import { uuidParam } from '../common/uuid-param';
import { CreateGroupMappingDto, GroupMappingView } from '../sign-in/dto/group-mapping.dto';
import {
  ApiCreateGroupMapping,
  ApiDeleteGroupMapping,
  ApiListGroupMappings,
} from '../sign-in/group-mapping.docs';
import { GroupMappingsService } from '../sign-in/group-mappings.service';
import { AssignGroupDto, TenantGroupListView, TenantGroupView } from '../sign-in/dto/tenant-group.dto';
import { TenantGroupsService } from '../sign-in/tenant-groups.service';
import { ApiJsonBody, ApiProblem } from '../openapi/api-problems';
import { CreateTenantDto, TenantListQueryDto, TenantListView, TenantView } from './dto/tenant.dto';
import { TenantsService } from './tenants.service';
import { LimitWritesInFlight } from '../rate-limit/write-admission';

/**
 * Platform bootstrap: the operator (GATEWAY_ADMIN_TOKEN) creates teams, their first keys, and
 * assigns them the identity provider's groups whose mappings let their people sign in.
 */
const NoSuchTenant = (): MethodDecorator => ApiProblem(404, '`not-found`: there is no tenant with this id.');

@ApiTags('platform')
@Controller('v1/admin/tenants')
@PlatformOnly()
export class TenantsController {
  constructor(
    private readonly tenants: TenantsService,
    private readonly keys: KeysService,
    private readonly groupMappings: GroupMappingsService,
    private readonly groups: TenantGroupsService,
  ) {}

  @Post()
  @LimitWritesInFlight('platform')
  @ApiOperation({
    summary: 'Create a tenant',
    description: 'A team: every credential, key, history record and audit event belongs to one tenant.',
  })
  @ApiJsonBody()
  @ApiProblem(409, '`conflict`: a tenant with this name already exists; `tenantId` is its id.')
  @ApiCreatedResponse({ type: TenantView })
  create(@CurrentActor() actor: Actor, @Body() body: CreateTenantDto): Promise<TenantView> {
    return this.tenants.create(body, actor);
  }

  @Get()
  @ApiOperation({
    summary: 'List the tenants',
    description: 'Oldest first, in keyset pages; `name` finds a tenant by its exact name.',
  })
  @ApiOkResponse({ type: TenantListView })
  list(@Query() query: TenantListQueryDto): Promise<Page<TenantView>> {
    return this.tenants.list(query);
  }

  @Post(':tenantId/keys')
  @LimitWritesInFlight('path')
  @ApiOperation({
    summary: "Issue a tenant's gateway key",
    description:
      "Usually the tenant's first admin key. The key itself is in the answer this once; only its hash is kept.",
  })
  @ApiJsonBody()
  @NoSuchTenant()
  @ApiCreatedResponse({ type: CreatedGatewayKeyView, description: 'The key is in `key`, shown this once.' })
  issueKey(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Param('tenantId', uuidParam('tenantId')) tenantId: string,
    @Body() body: CreateGatewayKeyDto,
  ): Promise<CreatedGatewayKeyView> {
    return this.keys.issue(tenantId, body, actor, principal);
  }

  @Post(':tenantId/groups')
  @LimitWritesInFlight('path')
  @ApiOperation({
    summary: "Assign an identity provider's group to a tenant",
    description:
      "Only the tenant's mappings of the group give its members roles, and only this tenant's admins may map it. " +
      "A group belongs to one tenant at most. Audited in the tenant's log as `group.assign`.",
  })
  @ApiJsonBody()
  @NoSuchTenant()
  @ApiProblem(
    409,
    '`conflict`: the group is assigned already, to this tenant or (then `tenantId` names it) to another.',
  )
  @ApiCreatedResponse({ type: TenantGroupView })
  assignGroup(
    @CurrentActor() actor: Actor,
    @Param('tenantId', uuidParam('tenantId')) tenantId: string,
    @Body() body: AssignGroupDto,
  ): Promise<TenantGroupView> {
    return this.groups.assign(tenantId, body, actor);
  }

  @Get(':tenantId/groups')
  @ApiOperation({
    summary: 'List the groups assigned to a tenant',
    description: 'Oldest first, keyset pages.',
  })
  @ApiOkResponse({ type: TenantGroupListView })
  listGroups(
    @Param('tenantId', uuidParam('tenantId')) tenantId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<TenantGroupView>> {
    return this.groups.list(tenantId, query.cursor, query.limit);
  }

  @Delete(':tenantId/groups/:id')
  @HttpCode(204)
  @LimitWritesInFlight('path')
  @ApiOperation({
    summary: 'Unassign a group from a tenant',
    description:
      "The tenant's mapping of the group is deleted with it: its members lose those roles, within 2 seconds on every " +
      'replica. Audited as `group.unassign` (and `group-mapping.delete`).',
  })
  @ApiNoContentResponse({ description: 'Unassigned.' })
  @ApiProblem(404, '`not-found`: no such assignment in this tenant.')
  unassignGroup(
    @CurrentActor() actor: Actor,
    @Param('tenantId', uuidParam('tenantId')) tenantId: string,
    @Param('id', uuidParam('id')) id: string,
  ): Promise<void> {
    return this.groups.unassign(tenantId, id, actor);
  }

  @Post(':tenantId/group-mappings')
  @LimitWritesInFlight('path')
  @ApiCreateGroupMapping(
    " The platform's mapping of a group assigned to no tenant assigns it to this one (`group.assign`).",
  )
  @ApiProblem(
    409,
    '`conflict`: the group is already mapped in this tenant, or is assigned to another tenant (`tenantId` names it).',
  )
  @NoSuchTenant()
  createGroupMapping(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Param('tenantId', uuidParam('tenantId')) tenantId: string,
    @Body() body: CreateGroupMappingDto,
  ): Promise<GroupMappingView> {
    return this.groupMappings.create(tenantId, body, actor, principal);
  }

  @Get(':tenantId/group-mappings')
  @ApiListGroupMappings()
  listGroupMappings(
    @Param('tenantId', uuidParam('tenantId')) tenantId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<GroupMappingView>> {
    return this.groupMappings.list(tenantId, query.cursor, query.limit);
  }

  @Delete(':tenantId/group-mappings/:id')
  @HttpCode(204)
  @LimitWritesInFlight('path')
  @ApiDeleteGroupMapping()
  removeGroupMapping(
    @CurrentActor() actor: Actor,
    @Param('tenantId', uuidParam('tenantId')) tenantId: string,
    @Param('id', uuidParam('id')) id: string,
  ): Promise<void> {
    return this.groupMappings.remove(tenantId, id, actor);
  }
}
