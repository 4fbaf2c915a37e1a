import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
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
import { CredentialStore } from '../credentials/credential-store';
import {
  CreateCredentialDto,
  CredentialListView,
  CredentialView,
  RotateCredentialDto,
} from '../credentials/dto/credential.dto';
import { optional, PlainParamsPipe, type ParamRule } from '../common/validation/plain-params';
import { PropagationOutcomeView } from './secret-propagation';
import { VaultService } from './vault.service';

const booleanRule: ParamRule<boolean> = {
  parse: (raw) => (raw === 'true' ? true : raw === 'false' ? false : undefined),
  message: 'must be true or false',
};
const rotateQueryParams = new PlainParamsPipe<{ propagate?: boolean }>({ propagate: optional(booleanRule) });
const deleteQueryParams = new PlainParamsPipe<{ force?: boolean }>({ force: optional(booleanRule) });

class RotatedCredentialView extends CredentialView {
  @ApiPropertyOptional({
    type: [PropagationOutcomeView],
    description: 'With ?propagate=true: each pipe that uses the secret, updated upstream or not.',
  })
  propagation?: PropagationOutcomeView[];
}
import { ApiJsonBody, ApiProblem } from '../openapi/api-problems';
import { LimitWritesInFlight } from '../rate-limit/write-admission';

const NoSuchCredential = (): MethodDecorator =>
  ApiProblem(404, '`not-found`: the tenant has no credential with this id.');

@ApiTags('credentials')
@Controller('v1/credentials')
export class CredentialsController {
  constructor(
    private readonly credentials: CredentialStore,
    private readonly vault: VaultService,
  ) {}

  @Post()
  @RequireRole('admin')
  @LimitWritesInFlight()
  @ApiOperation({
    summary: 'Store an upstream credential',
    description:
      '`kind: "pipes"` holds a pipes API key (`organizationId`, `keyId`, `keySecret`), one per organization; ' +
      '`kind: "dashboards"` a dashboards API `token`, optionally for a self-hosted `baseUrl` on an allowed host. ' +
      'The secret is encrypted at rest and never returned; the answer is its metadata.',
  })
  @ApiJsonBody()
  @ApiProblem(
    409,
    '`conflict`: the tenant already has a pipes credential for this organization; rotate it instead.',
  )
  @ApiCreatedResponse({ type: CredentialView, description: 'Metadata only; the secret is never returned.' })
  create(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Body() body: CreateCredentialDto,
  ): Promise<CredentialView> {
    return this.credentials.create(principal.tenantId, body, actor);
  }

  @Get()
  @RequireRole('viewer')
  @ApiOperation({
    summary: "List the tenant's credentials",
    description: 'Metadata only, oldest first, in keyset pages (`cursor`, `limit`).',
  })
  @ApiOkResponse({ type: CredentialListView })
  list(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Query() query: PageQueryDto,
  ): Promise<Page<CredentialView>> {
    return this.credentials.list(principal.tenantId, query.cursor, query.limit);
  }

  @Get(':id')
  @RequireRole('viewer')
  @ApiOperation({
    summary: 'Read a credential',
    description:
      'Metadata only: kind, name, the last 4 characters of the key id or token, version, use and refusal.',
  })
  @NoSuchCredential()
  @ApiOkResponse({ type: CredentialView })
  get(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Param('id', uuidParam('id')) id: string,
  ): Promise<CredentialView> {
    return this.credentials.get(principal.tenantId, id);
  }

  @Post(':id/rotate')
  @RequireRole('admin')
  @LimitWritesInFlight()
  @HttpCode(200)
  @ApiOperation({
    summary: "Replace a credential's secret",
    description:
      'A pipes credential takes a new `keySecret` (and optionally `keyId`), a dashboards credential a new `token`, ' +
      'a vault secret a new `value`. Its version goes up by 1 and a refusal mark is cleared. For a vault secret, ' +
      '?propagate=true then updates each pipe that uses it upstream (audited one by one) and reports each ' +
      'outcome; a failure on one stops none of the others and keeps the new value.',
  })
  @ApiQuery({ name: 'propagate', required: false, type: Boolean })
  @ApiJsonBody()
  @NoSuchCredential()
  @ApiOkResponse({
    type: RotatedCredentialView,
    description: 'The new secret replaces the old; version + 1.',
  })
  rotate(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param('id', uuidParam('id')) id: string,
    @Body() body: RotateCredentialDto,
    @Query(rotateQueryParams) query: { propagate?: boolean },
  ): Promise<RotatedCredentialView> {
    return this.vault.rotate(principal.tenantId, id, body, query.propagate === true, actor);
  }

  @Delete(':id')
  @RequireRole('admin')
  @LimitWritesInFlight()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a credential',
    description:
      'The secret is gone at once; pipes or dashboards calls that need it then answer 422. A vault secret that ' +
      'pipes use (GET /v1/credentials/{id}/usage) is kept, with a 409 naming them, unless ?force=true confirms ' +
      'it: those pipes keep its value upstream, but updating or creating one that references it then fails. ' +
      'The `credential.delete` event names the pipes (`usedBy`).',
  })
  @ApiQuery({ name: 'force', required: false, type: Boolean })
  @NoSuchCredential()
  @ApiProblem(
    409,
    '`secret-in-use`: pipes use this vault secret; `pipes` lists them (id, name, organization, service, paths) ' +
      'and the detail names them. Send ?force=true to delete it all the same.',
  )
  @ApiNoContentResponse({ description: 'Removed; calls that need it now answer 422.' })
  remove(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param('id', uuidParam('id')) id: string,
    @Query(deleteQueryParams) query: { force?: boolean },
  ): Promise<void> {
    return this.vault.remove(principal.tenantId, id, query.force === true, actor);
  }
}
