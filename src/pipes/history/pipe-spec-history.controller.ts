import { Controller, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, CurrentPrincipal, RequireRole } from '../../auth/auth.decorators';
import type { Actor, TenantPrincipal } from '../../auth/principal';
import { idempotencyKeyHeader } from '../../common/request-headers';
import { LimitWritesInFlight } from '../../rate-limit/write-admission';
import { PipesService } from '../pipes.service';
import { sendPipesAnswer } from '../pipes-answer';
import type { Page } from '../../common/pagination';
import { uuidParam } from '../../common/uuid-param';
import {
  PipeSpecHistoryPageView,
  PipeSpecHistoryQueryDto,
  PipeSpecRecordView,
  ResubmitPipeSpecDto,
} from './pipe-spec-history.dto';
import { PipeSpecHistoryService } from './pipe-spec-history.service';
import { ValidatedBody, ValidatedQuery } from '../../common/validation/validated-input';

@ApiTags('history')
@ApiBearerAuth('gateway-key')
@Controller('v1/history/pipe-specs')
@RequireRole('auditor')
export class PipeSpecHistoryController {
  constructor(
    private readonly history: PipeSpecHistoryService,
    private readonly pipes: PipesService,
  ) {}

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

  @Post(':id/resubmit')
  @RequireRole('operator')
  @LimitWritesInFlight()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create the pipe of a recorded spec again',
    description:
      "Submits the recorded create spec again, with today's values of the vault secrets it references, as a new " +
      'history entry linked to this one. A spec that held inline secrets answers 409 listing them: the history ' +
      'kept none of their values.',
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'As on pipe create.' })
  @ApiOkResponse({ description: '`{status, requestId, result}` from the pipes API, secrets removed.' })
  async resubmit(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param('id', uuidParam('id')) id: string,
    @ValidatedBody() body: ResubmitPipeSpecDto,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const answer = await this.pipes.resubmit(
      principal.tenantId,
      id,
      body.name,
      idempotencyKeyHeader(idempotencyKey),
      actor,
    );
    return sendPipesAnswer(reply, answer);
  }
}
