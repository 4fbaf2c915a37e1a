import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentActor, CurrentPrincipal, GATEWAY_KEY_SCHEME, RequireRole } from '../auth/auth.decorators';
import type { Actor, TenantPrincipal } from '../auth/principal';
import { PageQueryDto, type Page } from '../common/pagination';
import { uuidParam } from '../common/uuid-param';
import { ValidatedBody, ValidatedQuery } from '../common/validation/validated-input';
import { CreateGroupMappingDto, GroupMappingListView, GroupMappingView } from './dto/group-mapping.dto';
import { GroupMappingsService } from './group-mappings.service';

/** A tenant's admin decides which groups of signed-in users get which roles in the tenant. */
@ApiTags('sign-in')
@ApiBearerAuth(GATEWAY_KEY_SCHEME)
@Controller('v1/group-mappings')
@RequireRole('admin')
export class GroupMappingsController {
  constructor(private readonly mappings: GroupMappingsService) {}

  @Post()
  @ApiOperation({
    summary: 'Map a group to roles in this tenant',
    description:
      'Signed-in users whose token lists the group get these roles in this tenant (the union over all their groups). Audited as `group-mapping.create`.',
  })
  @ApiCreatedResponse({ type: GroupMappingView })
  @ApiBadRequestResponse({ description: '`validation-failed`: a field is missing, unknown or not valid.' })
  @ApiConflictResponse({ description: 'The group is already mapped in this tenant.' })
  create(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @ValidatedBody() body: CreateGroupMappingDto,
  ): Promise<GroupMappingView> {
    return this.mappings.create(principal.tenantId, body, actor);
  }

  @Get()
  @ApiOperation({ summary: "List this tenant's group mappings", description: 'Oldest first, keyset pages.' })
  @ApiOkResponse({ type: GroupMappingListView })
  @ApiBadRequestResponse({ description: '`validation-failed`: a cursor or limit that is not valid.' })
  list(
    @CurrentPrincipal() principal: TenantPrincipal,
    @ValidatedQuery() query: PageQueryDto,
  ): Promise<Page<GroupMappingView>> {
    return this.mappings.list(principal.tenantId, query.cursor, query.limit);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a group mapping',
    description:
      "The group's members lose its roles in this tenant within 2 seconds on every replica. Audited as `group-mapping.delete`.",
  })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiNotFoundResponse({ description: 'No such mapping in this tenant.' })
  remove(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param('id', uuidParam('id')) id: string,
  ): Promise<void> {
    return this.mappings.remove(principal.tenantId, id, actor);
  }
}
