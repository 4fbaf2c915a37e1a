import { Controller, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, PlatformOnly } from '../auth/auth.decorators';
import { CreatedGatewayKeyView, CreateGatewayKeyDto } from '../auth/dto/gateway-key.dto';
import { KeysService } from '../auth/keys.service';
import type { Actor } from '../auth/principal';
import { uuidParam } from '../common/uuid-param';
import { CreateTenantDto, TenantView } from './dto/tenant.dto';
import { TenantsService } from './tenants.service';
import { ValidatedBody } from '../common/validation/validated-input';

/** Platform bootstrap: the operator (GATEWAY_ADMIN_TOKEN) creates teams and their first keys. */
@ApiTags('platform')
@ApiBearerAuth('gateway-key')
@Controller('v1/admin/tenants')
@PlatformOnly()
export class TenantsController {
  constructor(
    private readonly tenants: TenantsService,
    private readonly keys: KeysService,
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
}
