import { Body, Controller, Delete, Get, Headers, Param, Patch, Post, Put, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, CurrentPrincipal, RequireRole } from '../auth/auth.decorators';
import { LimitWritesInFlight } from '../rate-limit/write-admission';
import type { Actor, TenantPrincipal } from '../auth/principal';
import { idempotencyKeyHeader } from '../common/request-headers';
import type { PipeLocation } from '../upstream/pipes-api.client';
import { PipePath, pipeLocationParams, pipePathParams } from './dto/pipe-path-params';
import { PipesService } from './pipes.service';
import { sendPipesAnswer } from './pipes-answer';
import { schemaRef } from '../common/validation/json-schema';
import { CheckedBody } from '../common/validation/validated-input';
import { checkScalingBody, checkSettingsBody, checkStateBody } from './schema/pipe-bodies';
import {
  CREATE_PIPE_BODY,
  SCALING_UPDATE_BODY,
  SETTINGS_BODY,
  STATE_BODY,
  UPDATE_PIPE_BODY,
} from './schema/pipe-bodies.schema';

const ENVELOPE = '`{status, requestId, result}` from the pipes API, secrets removed.';
const PipeIdParam = (): MethodDecorator => ApiParam({ name: 'pipeId', type: String, format: 'uuid' });

@ApiTags('pipes')
@ApiBearerAuth('gateway-key')
@ApiUnprocessableEntityResponse({ description: 'The tenant has no pipes credential for this organization.' })
@ApiParam({
  name: 'organizationId',
  type: String,
  format: 'uuid',
  description: 'Organization that owns the service.',
})
@ApiParam({
  name: 'serviceId',
  type: String,
  format: 'uuid',
  description: 'Service that owns, or will own, the pipe.',
})
@Controller('v1/organizations/:organizationId/services/:serviceId/pipes')
export class PipesController {
  constructor(private readonly pipes: PipesService) {}

  @Get()
  @RequireRole('viewer')
  @ApiOperation({ summary: "List a service's pipes", description: `${ENVELOPE} \`result\` is the list.` })
  @ApiOkResponse({ description: ENVELOPE })
  async list(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(pipeLocationParams) params: PipeLocation,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return sendPipesAnswer(reply, await this.pipes.list(principal.tenantId, params, actor));
  }

  @Post()
  @RequireRole('operator')
  @LimitWritesInFlight()
  @ApiOperation({
    summary: 'Create a pipe',
    description:
      "The body is the pipes service's own create body (every source kind, credential form and setting it " +
      'takes), checked against its published types, value sets and ranges and forwarded exactly as sent. ' +
      'The upstream envelope is returned as sent, secrets removed.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Same key and spec within 24 h: the first answer again.',
  })
  @ApiBody({ schema: schemaRef('PipeCreateBody', CREATE_PIPE_BODY) })
  @ApiOkResponse({ description: ENVELOPE })
  async create(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(pipeLocationParams) params: PipeLocation,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const answer = await this.pipes.create(
      principal.tenantId,
      params,
      body,
      idempotencyKeyHeader(idempotencyKey),
      actor,
    );
    return sendPipesAnswer(reply, answer);
  }

  @Get(':pipeId')
  @RequireRole('viewer')
  @PipeIdParam()
  @ApiOperation({ summary: 'Read a pipe', description: ENVELOPE })
  @ApiOkResponse({ description: ENVELOPE })
  async get(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(pipePathParams) params: PipePath,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return sendPipesAnswer(reply, await this.pipes.get(principal.tenantId, params, actor));
  }

  @Patch(':pipeId')
  @RequireRole('operator')
  @LimitWritesInFlight()
  @PipeIdParam()
  @ApiOperation({
    summary: 'Update a pipe',
    description:
      "Only the fields of the service's update body are accepted; `null` clears a field. Forwarded exactly as sent.",
  })
  @ApiBody({ schema: schemaRef('PipeUpdateBody', UPDATE_PIPE_BODY) })
  @ApiOkResponse({ description: ENVELOPE })
  async update(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(pipePathParams) params: PipePath,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return sendPipesAnswer(reply, await this.pipes.update(principal.tenantId, params, body, actor));
  }

  @Delete(':pipeId')
  @RequireRole('operator')
  @LimitWritesInFlight()
  @PipeIdParam()
  @ApiOperation({
    summary: 'Delete a pipe',
    description:
      'A pipe created through the gateway keeps its create spec in the history, marked deleted. ' +
      'Answers the envelope the service sends, without a result.',
  })
  @ApiOkResponse({ description: '`{status, requestId}` from the pipes API.' })
  async delete(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(pipePathParams) params: PipePath,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return sendPipesAnswer(reply, await this.pipes.delete(principal.tenantId, params, actor));
  }

  @Patch(':pipeId/state')
  @RequireRole('operator')
  @LimitWritesInFlight()
  @PipeIdParam()
  @ApiOperation({
    summary: 'Start, stop or resync a pipe',
    description: 'resync is for database (CDC) pipes. Answers the pipe in its new state.',
  })
  @ApiBody({ schema: schemaRef('PipeStateBody', STATE_BODY) })
  @ApiOkResponse({ description: ENVELOPE })
  async changeState(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(pipePathParams) params: PipePath,
    @CheckedBody(checkStateBody) body: { command: string },
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return sendPipesAnswer(reply, await this.pipes.changeState(principal.tenantId, params, body, actor));
  }

  @Patch(':pipeId/scaling')
  @RequireRole('operator')
  @LimitWritesInFlight()
  @PipeIdParam()
  @ApiOperation({
    summary: 'Scale a pipe',
    description: 'Replicas 1-40, CPU 125-2000 millicores, memory 0.5-8 GB per replica; null resets a value.',
  })
  @ApiBody({ schema: schemaRef('PipeScalingBody', SCALING_UPDATE_BODY) })
  @ApiOkResponse({ description: ENVELOPE })
  async scale(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(pipePathParams) params: PipePath,
    @CheckedBody(checkScalingBody) body: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return sendPipesAnswer(reply, await this.pipes.scale(principal.tenantId, params, body, actor));
  }

  @Get(':pipeId/settings')
  @RequireRole('viewer')
  @PipeIdParam()
  @ApiOperation({ summary: "Read a pipe's advanced settings" })
  @ApiOkResponse({ description: '`{status, requestId, result}` with the settings object.' })
  async settings(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(pipePathParams) params: PipePath,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return sendPipesAnswer(reply, await this.pipes.settings(principal.tenantId, params, actor));
  }

  @Put(':pipeId/settings')
  @RequireRole('operator')
  @LimitWritesInFlight()
  @PipeIdParam()
  @ApiOperation({
    summary: "Replace a pipe's advanced settings",
    description:
      'The settings object replaces the old one whole; `clickhouse_*` and `engine_*` names are both taken.',
  })
  @ApiBody({ schema: schemaRef('PipeSettingsBody', SETTINGS_BODY) })
  @ApiOkResponse({ description: '`{status, requestId, result}` with the settings object.' })
  async replaceSettings(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(pipePathParams) params: PipePath,
    @CheckedBody(checkSettingsBody) body: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return sendPipesAnswer(reply, await this.pipes.replaceSettings(principal.tenantId, params, body, actor));
  }
}
