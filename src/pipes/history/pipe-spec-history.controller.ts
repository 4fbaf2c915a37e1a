import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
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
import {
  ApiIdempotencyKey,
  ApiJsonBody,
  ApiProblem,
  ApiSecretReferences,
  ApiUpstreamProblems,
} from '../../openapi/api-problems';
import { PIPE_ENVELOPE } from '../schema/pipe-answers.schema';

const NO_SUCH_RECORD = '`not-found`: the tenant has no history record with this id.';

@ApiTags('history')
@Controller('v1/history/pipe-specs')
export class PipeSpecHistoryController {
  constructor(
    private readonly history: PipeSpecHistoryService,
    private readonly pipes: PipesService,
  ) {}

  @Get()
  @RequireRole('auditor')
  @ApiOperation({
    summary: 'List submitted pipe create specs',
    description:
      'Every pipe create that passed validation, recorded before the upstream call and completed after it, ' +
      'secrets replaced by "[redacted]"; newest first, in keyset pages, narrowed by the filters.',
  })
  @ApiOkResponse({ type: PipeSpecHistoryPageView, description: 'Newest first.' })
  list(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Query() query: PipeSpecHistoryQueryDto,
  ): Promise<Page<PipeSpecRecordView>> {
    return this.history.list(principal.tenantId, query);
  }

  @Get(':id')
  @RequireRole('auditor')
  @ApiOperation({
    summary: 'Read a submitted pipe create spec',
    description: 'The spec as submitted (secrets redacted), who sent it, and the outcome upstream.',
  })
  @ApiProblem(404, NO_SUCH_RECORD)
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
  @ApiJsonBody()
  @ApiIdempotencyKey('no second pipe')
  @ApiSecretReferences()
  @ApiUpstreamProblems('pipes')
  @ApiProblem(404, NO_SUCH_RECORD)
  @ApiProblem(
    409,
    '`spec-holds-inline-secrets`: the spec carried secrets inline, which the history did not keep; `errors` ' +
      'names each place.',
  )
  @ApiOkResponse({
    description:
      '`{status, requestId, result}` from the pipes API, secrets removed; `result` is the new pipe.',
    schema: PIPE_ENVELOPE,
  })
  async resubmit(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param('id', uuidParam('id')) id: string,
    @Body() body: ResubmitPipeSpecDto,
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
