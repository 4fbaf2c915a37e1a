import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentActor, CurrentPrincipal, RequireRole } from '../auth/auth.decorators';
import type { Actor, TenantPrincipal } from '../auth/principal';
import { PageQueryDto, type Page } from '../common/pagination';
import { uuidParam } from '../common/uuid-param';
import { CreateGroupMappingDto, GroupMappingView } from './dto/group-mapping.dto';
import { ApiCreateGroupMapping, ApiDeleteGroupMapping, ApiListGroupMappings } from './group-mapping.docs';
import { GroupMappingsService } from './group-mappings.service';
import { ApiRoleGrantProblem } from '../auth/role-grants';
import { ApiProblem } from '../openapi/api-problems';
import { LimitWritesInFlight } from '../rate-limit/write-admission';

/** A tenant's admin decides which groups of signed-in users get which roles in the tenant. */
@ApiTags('sign-in')
@Controller('v1/group-mappings')
@RequireRole('admin')
export class GroupMappingsController {
  constructor(private readonly mappings: GroupMappingsService) {}

  @Post()
  @LimitWritesInFlight()
  @ApiCreateGroupMapping(' Only a group the platform assigned to the tenant can be mapped.')
  @ApiRoleGrantProblem(
    ' `group-not-assigned`: the group is not assigned to this tenant (the platform assigns groups to tenants).',
  )
  @ApiProblem(409, '`conflict`: the group is already mapped in this tenant.')
  create(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Body() body: CreateGroupMappingDto,
  ): Promise<GroupMappingView> {
    return this.mappings.create(principal.tenantId, body, actor, principal);
  }

  @Get()
  @ApiListGroupMappings()
  list(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Query() query: PageQueryDto,
  ): Promise<Page<GroupMappingView>> {
    return this.mappings.list(principal.tenantId, query.cursor, query.limit);
  }

  @Delete(':id')
  @HttpCode(204)
  @LimitWritesInFlight()
  @ApiDeleteGroupMapping()
  remove(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param('id', uuidParam('id')) id: string,
  ): Promise<void> {
    return this.mappings.remove(principal.tenantId, id, actor);
  }
}
