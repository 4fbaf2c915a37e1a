import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentActor, CurrentPrincipal, RequireRole } from '../auth/auth.decorators';
import type { Actor, TenantPrincipal } from '../auth/principal';
import { PageQueryDto, type Page } from '../common/pagination';
import { uuidParam } from '../common/uuid-param';
import { CredentialsService } from './credentials.service';
import {
  CreateCredentialDto,
  CredentialListView,
  CredentialView,
  RotateCredentialDto,
} from './dto/credential.dto';
import { ValidatedBody, ValidatedQuery } from '../common/validation/validated-input';

@ApiTags('credentials')
@ApiBearerAuth('gateway-key')
@Controller('v1/credentials')
export class CredentialsController {
  constructor(private readonly credentials: CredentialsService) {}

  @Post()
  @RequireRole('admin')
  @ApiCreatedResponse({ type: CredentialView, description: 'Metadata only; the secret is never returned.' })
  create(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @ValidatedBody() body: CreateCredentialDto,
  ): Promise<CredentialView> {
    return this.credentials.create(principal.tenantId, body, actor);
  }

  @Get()
  @RequireRole('viewer')
  @ApiOkResponse({ type: CredentialListView })
  list(
    @CurrentPrincipal() principal: TenantPrincipal,
    @ValidatedQuery() query: PageQueryDto,
  ): Promise<Page<CredentialView>> {
    return this.credentials.list(principal.tenantId, query.cursor, query.limit);
  }

  @Get(':id')
  @RequireRole('viewer')
  @ApiOkResponse({ type: CredentialView })
  get(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Param('id', uuidParam('id')) id: string,
  ): Promise<CredentialView> {
    return this.credentials.get(principal.tenantId, id);
  }

  @Post(':id/rotate')
  @RequireRole('admin')
  @HttpCode(200)
  @ApiOkResponse({ type: CredentialView, description: 'The new secret replaces the old; version + 1.' })
  rotate(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param('id', uuidParam('id')) id: string,
    @ValidatedBody() body: RotateCredentialDto,
  ): Promise<CredentialView> {
    return this.credentials.rotate(principal.tenantId, id, body, actor);
  }

  @Delete(':id')
  @RequireRole('admin')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Removed; calls that need it now answer 422.' })
  remove(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param('id', uuidParam('id')) id: string,
  ): Promise<void> {
    return this.credentials.remove(principal.tenantId, id, actor);
  }
}
