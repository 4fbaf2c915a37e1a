import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPropertyOptional,
  ApiQuery,
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
import { optional, PlainParamsPipe, type ParamRule } from '../common/validation/plain-params';
import { validationProblem } from '../common/problem/validation';
import { PropagationOutcomeView, SecretPropagation } from '../pipes/secret-propagation';

const booleanRule: ParamRule<boolean> = {
  parse: (raw) => (raw === 'true' ? true : raw === 'false' ? false : undefined),
  message: (name) => `${name} must be true or false`,
};
const rotateQueryParams = new PlainParamsPipe<{ propagate?: boolean }>({ propagate: optional(booleanRule) });

class RotatedCredentialView extends CredentialView {
  @ApiPropertyOptional({
    type: [PropagationOutcomeView],
    description: 'With ?propagate=true: each pipe that uses the secret, updated upstream or not.',
  })
  propagation?: PropagationOutcomeView[];
}

@ApiTags('credentials')
@ApiBearerAuth('gateway-key')
@Controller('v1/credentials')
export class CredentialsController {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly modules: ModuleRef,
  ) {}

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
  @ApiOperation({
    summary: 'Replace the secret',
    description:
      'The new secret replaces the old; version + 1. For a vault secret, ?propagate=true then updates each pipe ' +
      'that uses it upstream (audited one by one) and reports each outcome; a failure on one stops none of the ' +
      'others and keeps the new value.',
  })
  @ApiQuery({ name: 'propagate', required: false, type: Boolean })
  @ApiOkResponse({ type: RotatedCredentialView })
  async rotate(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param('id', uuidParam('id')) id: string,
    @ValidatedBody() body: RotateCredentialDto,
    @Query(rotateQueryParams) query: { propagate?: boolean },
  ): Promise<RotatedCredentialView> {
    if (query.propagate && (await this.credentials.get(principal.tenantId, id)).kind !== 'secret') {
      throw validationProblem([
        { path: 'propagate', message: 'applies to vault secrets (kind secret) only' },
      ]);
    }
    const rotated = await this.credentials.rotate(principal.tenantId, id, body, actor);
    if (!query.propagate) return rotated;
    // Looked up, not injected: the pipes module depends on this one, so importing it back would be a cycle.
    const propagation = this.modules.get(SecretPropagation, { strict: false });
    return { ...rotated, propagation: await propagation.propagate(principal.tenantId, id, actor) };
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
