import { Body, Controller, Delete, Get, Headers, Param, Patch, Post, Put, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
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
import {
  ApiIdempotencyKey,
  ApiJsonBody,
  ApiSecretReferences,
  ApiUpstreamProblems,
} from '../openapi/api-problems';
import {
  PIPE_ENVELOPE,
  PIPE_LIST_ENVELOPE,
  PIPE_SETTINGS_ENVELOPE,
  PIPES_EMPTY_ENVELOPE,
} from './schema/pipe-answers.schema';
import { CheckedBody } from '../common/validation/checked-body';
import { withSecretReferences } from './schema/secret-reference.schema';
import { checkScalingBody, checkSettingsBody, checkStateBody } from './schema/pipe-bodies';
import {
  CREATE_PIPE_BODY,
  SCALING_UPDATE_BODY,
  SETTINGS_BODY,
  STATE_BODY,
  UPDATE_PIPE_BODY,
} from './schema/pipe-bodies.schema';

const ENVELOPE = '`{status, requestId, result}` from the pipes API, secrets removed.';
const REFERENCES =
  'Where the service takes a secret (a credential object, an access key, a password, secret or private key, a ' +
  'connection string, a service-account key), `{"$secret": "<name or id>"}` may stand for a vault secret of ' +
  'the tenant: its value is put in for the upstream call only. The body schema types each such place as the ' +
  'value or a `SecretReference`.';
// Reads are served from the tenant's cache for PIPE_READ_CACHE_MS: the answer says how old it is.
const CACHED =
  " Served from the tenant's read cache for up to PIPE_READ_CACHE_MS (2 s by default); `Age` says how old it is.";
const READ_HEADERS = {
  Age: {
    description: 'Seconds since the upstream call this answer comes from began (0: read now).',
    schema: { type: 'integer', minimum: 0 },
  },
  'Cache-Control': {
    description: '`private, max-age=<seconds>`: how much longer the answer may be reused.',
    schema: { type: 'string', example: 'private, max-age=2' },
  },
};
const PipeIdParam = (): MethodDecorator =>
  ApiParam({ name: 'pipeId', type: String, format: 'uuid', description: 'The pipe.' });

@ApiTags('pipes')
@ApiUpstreamProblems('pipes')
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
  @ApiOperation({
    summary: "List a service's pipes",
    description: `${ENVELOPE} \`result\` is the list.${CACHED}`,
  })
  @ApiOkResponse({ description: ENVELOPE, schema: PIPE_LIST_ENVELOPE, headers: READ_HEADERS })
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
      `The upstream envelope is returned as sent, secrets removed. ${REFERENCES}`,
  })
  @ApiIdempotencyKey('no second pipe')
  @ApiJsonBody(schemaRef('PipeCreateBody', () => withSecretReferences(CREATE_PIPE_BODY)))
  @ApiSecretReferences()
  @ApiOkResponse({ description: `${ENVELOPE} \`result\` is the new pipe.`, schema: PIPE_ENVELOPE })
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
  @ApiOperation({ summary: 'Read a pipe', description: `${ENVELOPE} \`result\` is the pipe.${CACHED}` })
  @ApiOkResponse({ description: ENVELOPE, schema: PIPE_ENVELOPE, headers: READ_HEADERS })
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
      "Only the fields of the service's update body are accepted; `null` clears a field. Forwarded exactly as " +
      `sent. ${REFERENCES}`,
  })
  @ApiJsonBody(schemaRef('PipeUpdateBody', () => withSecretReferences(UPDATE_PIPE_BODY)))
  @ApiSecretReferences()
  @ApiOkResponse({ description: `${ENVELOPE} \`result\` is the pipe as updated.`, schema: PIPE_ENVELOPE })
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
  @ApiOkResponse({ description: '`{status, requestId}` from the pipes API.', schema: PIPES_EMPTY_ENVELOPE })
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
  @ApiJsonBody(schemaRef('PipeStateBody', STATE_BODY))
  @ApiOkResponse({ description: ENVELOPE, schema: PIPE_ENVELOPE })
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
    description:
      'Replicas 1-40, CPU 125-2000 millicores, memory 0.5-8 GB per replica; null resets a value. Answers the pipe.',
  })
  @ApiJsonBody(schemaRef('PipeScalingBody', SCALING_UPDATE_BODY))
  @ApiOkResponse({ description: ENVELOPE, schema: PIPE_ENVELOPE })
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
  @ApiOperation({
    summary: "Read a pipe's advanced settings",
    description: `${ENVELOPE} \`result\` is the settings object, as the service names the settings.${CACHED}`,
  })
  @ApiOkResponse({ description: ENVELOPE, schema: PIPE_SETTINGS_ENVELOPE, headers: READ_HEADERS })
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
  @ApiJsonBody(schemaRef('PipeSettingsBody', SETTINGS_BODY))
  @ApiOkResponse({
    description: `${ENVELOPE} \`result\` is the new settings object.`,
    schema: PIPE_SETTINGS_ENVELOPE,
  })
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
