import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
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

@ApiTags('history')
@ApiBearerAuth('gateway-key')
@Controller('v1/history/pipe-specs')
@RequireRole('auditor')
export class PipeSpecHistoryController {
  constructor(private readonly history: PipeSpecHistoryService) {}

  @Get()
  @ApiOkResponse({ type: PipeSpecHistoryPageView, description: 'Newest first.' })
  list(
    @CurrentPrincipal() principal: TenantPrincipal,
    @ValidatedQuery() query: PipeSpecHistoryQueryDto,
  ): Promise<Page<PipeSpecRecordView>> {
    return this.history.list(principal.tenantId, query);
  }

  @Get(':id')
  @ApiOkResponse({ type: PipeSpecRecordView })
  get(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Param('id', uuidParam('id')) id: string,
  ): Promise<PipeSpecRecordView> {
    return this.history.get(principal.tenantId, id);
  }
}
