import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentActor, PlatformOnly } from '../auth/auth.decorators';
import { CreatedGatewayKeyView, CreateGatewayKeyDto } from '../auth/dto/gateway-key.dto';
import { KeysService } from '../auth/keys.service';
import type { Actor } from '../auth/principal';
import { PageQueryDto, type Page } from '../common/pagination';
import { uuidParam } from '../common/uuid-param';
import { ValidatedBody, ValidatedQuery } from '../common/validation/validated-input';
import {
  CreateGroupMappingDto,
  GroupMappingListView,
  GroupMappingView,
} from '../sign-in/dto/group-mapping.dto';
import { GroupMappingsService } from '../sign-in/group-mappings.service';
import { CreateTenantDto, TenantView } from './dto/tenant.dto';
import { TenantsService } from './tenants.service';

const tenantNotFound = ApiNotFoundResponse({ description: 'No such tenant.' });

/**
 * Platform bootstrap: the operator (GATEWAY_ADMIN_TOKEN) creates teams, their first keys and the
 * group mappings that let their people sign in.
 */
@ApiTags('platform')
@Controller('v1/admin/tenants')
@PlatformOnly()
export class TenantsController {
  constructor(
    private readonly tenants: TenantsService,
    private readonly keys: KeysService,
    private readonly groupMappings: GroupMappingsService,
  ) {}

  @Post()
  @ApiCreatedResponse({ type: TenantView })
  create(@CurrentActor() actor: Actor, @ValidatedBody() body: CreateTenantDto): Promise<TenantView> {
    return this.tenants.create(body, actor);
  }

  @Post(':tenantId/keys')
  @ApiCreatedResponse({ type: CreatedGatewayKeyView, description: 'The key is in `key`, shown this once.' })
  issueKey(
    @CurrentActor() actor: Actor,
    @Param('tenantId', uuidParam('tenantId')) tenantId: string,
    @ValidatedBody() body: CreateGatewayKeyDto,
  ): Promise<CreatedGatewayKeyView> {
    return this.keys.issue(tenantId, body, actor);
  }

  @Post(':tenantId/group-mappings')
  @ApiOperation({
    summary: 'Map a group to roles in a tenant',
    description:
      "Signed-in users whose token lists the group get these roles in the tenant. Audited in the tenant's log as `group-mapping.create`.",
  })
  @ApiCreatedResponse({ type: GroupMappingView })
  @ApiBadRequestResponse({ description: '`validation-failed`: a field is missing, unknown or not valid.' })
  @ApiConflictResponse({ description: 'The group is already mapped in this tenant.' })
  @tenantNotFound
  createGroupMapping(
    @CurrentActor() actor: Actor,
    @Param('tenantId', uuidParam('tenantId')) tenantId: string,
    @ValidatedBody() body: CreateGroupMappingDto,
  ): Promise<GroupMappingView> {
    return this.groupMappings.create(tenantId, body, actor);
  }

  @Get(':tenantId/group-mappings')
  @ApiOperation({ summary: "List a tenant's group mappings", description: 'Oldest first, keyset pages.' })
  @ApiOkResponse({ type: GroupMappingListView })
  @ApiBadRequestResponse({ description: '`validation-failed`: a cursor or limit that is not valid.' })
  listGroupMappings(
    @Param('tenantId', uuidParam('tenantId')) tenantId: string,
    @ValidatedQuery() query: PageQueryDto,
  ): Promise<Page<GroupMappingView>> {
    return this.groupMappings.list(tenantId, query.cursor, query.limit);
  }

  @Delete(':tenantId/group-mappings/:id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a group mapping',
    description: "The group's members lose its roles in the tenant. Audited as `group-mapping.delete`.",
  })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiNotFoundResponse({ description: 'No such mapping in this tenant.' })
  removeGroupMapping(
    @CurrentActor() actor: Actor,
    @Param('tenantId', uuidParam('tenantId')) tenantId: string,
    @Param('id', uuidParam('id')) id: string,
  ): Promise<void> {
    return this.groupMappings.remove(tenantId, id, actor);
  }
}
