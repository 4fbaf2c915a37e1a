import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PageQueryDto, type Page } from '../common/pagination';
import { uuidParam } from '../common/uuid-param';
import { CurrentActor, CurrentPrincipal, RequireRole } from './auth.decorators';
import {
  CreatedGatewayKeyView,
  CreateGatewayKeyDto,
  GatewayKeyListView,
  GatewayKeyView,
} from './dto/gateway-key.dto';
import { KeysService } from './keys.service';
import { ApiRoleGrantProblem } from './role-grants';
import type { Actor, TenantPrincipal } from './principal';
import { ApiJsonBody, ApiProblem } from '../openapi/api-problems';
import { LimitWritesInFlight } from '../rate-limit/write-admission';

@ApiTags('keys')
@Controller('v1/keys')
@RequireRole('admin')
export class KeysController {
  constructor(private readonly keys: KeysService) {}

  @Post()
  @LimitWritesInFlight()
  @ApiOperation({
    summary: 'Issue a gateway key',
    description:
      'A key of this tenant with the roles given. The key itself is in the answer this once; only its hash is kept.',
  })
  @ApiJsonBody()
  @ApiCreatedResponse({ type: CreatedGatewayKeyView, description: 'The key is in `key`, shown this once.' })
  @ApiRoleGrantProblem(
    ' Or the caller is a key issued with `delegate: false` asking for a key that may delegate.',
  )
  create(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Body() body: CreateGatewayKeyDto,
  ): Promise<CreatedGatewayKeyView> {
    return this.keys.issue(principal.tenantId, body, actor, principal);
  }

  @Get()
  @ApiOperation({
    summary: "List the tenant's gateway keys",
    description: 'Metadata only (never a key), revoked keys included, oldest first, in keyset pages.',
  })
  @ApiOkResponse({ type: GatewayKeyListView })
  list(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Query() query: PageQueryDto,
  ): Promise<Page<GatewayKeyView>> {
    return this.keys.list(principal.tenantId, query.cursor, query.limit);
  }

  @Delete(':id')
  @HttpCode(200)
  @LimitWritesInFlight()
  @ApiOperation({
    summary: 'Revoke a gateway key',
    description: 'Calls with the key are refused (401) from now on, on every replica. The key stays listed.',
  })
  @ApiProblem(404, '`not-found`: the tenant has no gateway key with this id.')
  @ApiOkResponse({ type: GatewayKeyView, description: 'The key, now revoked. Calls with it fail at once.' })
  revoke(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param('id', uuidParam('id')) id: string,
  ): Promise<GatewayKeyView> {
    return this.keys.revoke(principal.tenantId, id, actor);
  }
}
