import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireRole } from '../../auth/auth.decorators';
import type { TenantPrincipal } from '../../auth/principal';
import type { Page } from '../../common/pagination';
import { uuidParam } from '../../common/uuid-param';
import {
  PipeSpecHistoryPageView,
  PipeSpecHistoryQueryDto,
  PipeSpecRecordView,
} from './pipe-spec-history.dto';
import { PipeSpecHistoryService } from './pipe-spec-history.service';
import { ValidatedQuery } from '../../common/validation/validated-input';
import { ApiProblem } from '../../openapi/api-problems';

@ApiTags('history')
@Controller('v1/history/pipe-specs')
@RequireRole('auditor')
export class PipeSpecHistoryController {
  constructor(private readonly history: PipeSpecHistoryService) {}

  @Get()
  @ApiOperation({
    summary: 'List submitted pipe create specs',
    description:
      'Every pipe create that passed validation, recorded before the upstream call and completed after it, ' +
      'secrets replaced by "[redacted]"; newest first, in keyset pages, narrowed by the filters.',
  })
  @ApiOkResponse({ type: PipeSpecHistoryPageView, description: 'Newest first.' })
  list(
    @CurrentPrincipal() principal: TenantPrincipal,
    @ValidatedQuery() query: PipeSpecHistoryQueryDto,
  ): Promise<Page<PipeSpecRecordView>> {
    return this.history.list(principal.tenantId, query);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Read a submitted pipe create spec',
    description: 'The spec as submitted (secrets redacted), who sent it, and the outcome upstream.',
  })
  @ApiProblem(404, '`not-found`: the tenant has no history record with this id.')
  @ApiOkResponse({ type: PipeSpecRecordView })
  get(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Param('id', uuidParam('id')) id: string,
  ): Promise<PipeSpecRecordView> {
    return this.history.get(principal.tenantId, id);
  }
}
