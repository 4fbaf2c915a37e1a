import { Body, Controller, Get, Headers, Param, Patch, Post, Res } from '@nestjs/common';
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
import { PROBLEM_CONTENT_TYPE } from '../common/problem/problem';
import { idempotencyKeyHeader } from '../common/request-headers';
import type { PipeLocation } from '../upstream/pipes-api.client';
import { PipePath, pipeLocationParams, pipePathParams } from './dto/pipe-path-params';
import { PipesAnswer, PipesService } from './pipes.service';
import { schemaRef } from '../common/validation/json-schema';
import { CREATE_PIPE_BODY, UPDATE_PIPE_BODY } from './schema/pipe-bodies.schema';

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
  @ApiOkResponse({ description: '`{status, requestId, result}` from the pipes API.' })
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
    return send(reply, answer);
  }

  @Patch(':pipeId')
  @RequireRole('operator')
  @LimitWritesInFlight()
  @ApiParam({ name: 'pipeId', type: String, format: 'uuid' })
  @ApiOperation({
    summary: 'Update a pipe',
    description:
      "Only the fields of the service's update body are accepted; `null` clears a field. Forwarded exactly as sent.",
  })
  @ApiBody({ schema: schemaRef('PipeUpdateBody', UPDATE_PIPE_BODY) })
  @ApiOkResponse({ description: '`{status, requestId, result}` from the pipes API.' })
  async update(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(pipePathParams) params: PipePath,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return send(reply, await this.pipes.update(principal.tenantId, params, params.pipeId, body, actor));
  }

  @Get(':pipeId/settings')
  @RequireRole('viewer')
  @ApiParam({ name: 'pipeId', type: String, format: 'uuid' })
  @ApiOperation({ summary: "Read a pipe's advanced settings" })
  @ApiOkResponse({ description: '`{status, requestId, result}` with the settings object.' })
  async settings(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(pipePathParams) params: PipePath,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return send(reply, await this.pipes.settings(principal.tenantId, params, params.pipeId, actor));
  }
}

function send(reply: FastifyReply, answer: PipesAnswer): unknown {
  void reply.status(answer.status);
  if (answer.problem) void reply.header('content-type', PROBLEM_CONTENT_TYPE);
  return answer.body;
}
