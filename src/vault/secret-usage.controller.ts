import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireRole } from '../auth/auth.decorators';
import type { TenantPrincipal } from '../auth/principal';
import { uuidParam } from '../common/uuid-param';
import { ApiProblem } from '../openapi/api-problems';
import type { NamedSecretUse } from './secret-users';
import { VaultService } from './vault.service';

class SecretUseItemView {
  @ApiProperty() pipeId!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The pipe's name as the gateway last created or renamed it; null when it never did.",
  })
  pipeName!: string | null;
  @ApiProperty({ format: 'uuid' }) organizationId!: string;
  @ApiProperty({ format: 'uuid' }) serviceId!: string;
  @ApiProperty({ description: 'Where in the spec the reference stands, e.g. source.kafka.credentials.' })
  path!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'The create spec, when it made the reference.',
  })
  historyId!: string | null;
  @ApiProperty() since!: Date;
}

class SecretUseListView {
  @ApiProperty({ type: [SecretUseItemView] }) items!: SecretUseItemView[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: null;
}

/** Where a vault secret is used. */
@ApiTags('credentials')
@Controller('v1/credentials')
export class SecretUsageController {
  constructor(private readonly vault: VaultService) {}

  @Get(':id/usage')
  @RequireRole('viewer')
  @ApiOperation({
    summary: 'Where a vault secret is used',
    description:
      'The pipes created or updated through the gateway with specs that reference the secret, and where in each spec.',
  })
  @ApiProblem(404, '`not-found`: the tenant has no credential with this id.')
  @ApiOkResponse({ type: SecretUseListView })
  async usage(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Param('id', uuidParam('id')) id: string,
  ): Promise<{ items: NamedSecretUse[]; nextCursor: null }> {
    return { items: await this.vault.usage(principal.tenantId, id), nextCursor: null };
  }
}
