import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
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
import type { Actor, TenantPrincipal } from './principal';
import { ValidatedBody, ValidatedQuery } from '../common/validation/validated-input';

@ApiTags('keys')
@ApiBearerAuth('gateway-key')
@Controller('v1/keys')
@RequireRole('admin')
export class KeysController {
  constructor(private readonly keys: KeysService) {}

  @Post()
  @ApiCreatedResponse({ type: CreatedGatewayKeyView, description: 'The key is in `key`, shown this once.' })
  create(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @ValidatedBody() body: CreateGatewayKeyDto,
  ): Promise<CreatedGatewayKeyView> {
    return this.keys.issue(principal.tenantId, body, actor);
  }

  @Get()
  @ApiOkResponse({ type: GatewayKeyListView })
  list(
    @CurrentPrincipal() principal: TenantPrincipal,
    @ValidatedQuery() query: PageQueryDto,
  ): Promise<Page<GatewayKeyView>> {
    return this.keys.list(principal.tenantId, query.cursor, query.limit);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOkResponse({ type: GatewayKeyView, description: 'The key, now revoked. Calls with it fail at once.' })
  revoke(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param('id', uuidParam('id')) id: string,
  ): Promise<GatewayKeyView> {
    return this.keys.revoke(principal.tenantId, id, actor);
  }
}
