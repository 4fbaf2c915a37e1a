import { Controller, Get, Headers, Param, Query, Req, Res } from '@nestjs/common';
import {
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, RequireRole } from '../auth/auth.decorators';
import type { TenantPrincipal } from '../auth/principal';
import { optional, PlainParamsPipe, uuidRule } from '../common/validation/plain-params';
import { ApiProblem, RETRY_AFTER } from '../openapi/api-problems';
import { pipeLocationParams } from '../pipes/dto/pipe-path-params';
import type { PipeLocation } from '../upstream/pipes-api.client';
import { lastEventIdHeader } from './last-event-id';
import { PipeEvents } from './pipe-events.service';

const eventsQuery = new PlainParamsPipe<{ pipeId?: string }>({ pipeId: optional(uuidRule) });

const STREAM =
  'Server-Sent Events, one per change: `pipe.created`, `pipe.updated`, `pipe.deleted`, `pipe.state`, ' +
  '`pipe.scaling`, each with an `id` and `data` `{pipeId, pipe?, source}` (`pipe` is the pipe as it is ' +
  'now, secrets removed, absent for a deletion; `source` is `gateway` for a write made through the gateway, ' +
  '`upstream` for a change found by polling the pipes API). Comment lines (`:`) keep an idle stream open. ' +
  '`stream.reset` says events since `Last-Event-ID` are no longer kept (read the list again); ' +
  '`stream.end` `{reason}` is the last event when the key is revoked, the token expires, the role is ' +
  'withdrawn or the gateway stops. A reader too slow to keep up is disconnected: reconnect with ' +
  '`Last-Event-ID`.';

@ApiTags('pipes')
@ApiParam({
  name: 'organizationId',
  type: String,
  format: 'uuid',
  description: 'Organization that owns the service.',
})
@ApiParam({ name: 'serviceId', type: String, format: 'uuid', description: 'Service whose pipes to follow.' })
@Controller('v1/organizations/:organizationId/services/:serviceId/pipes/events')
export class PipeEventsController {
  constructor(private readonly events: PipeEvents) {}

  @Get()
  @RequireRole('viewer')
  @ApiOperation({
    summary: "Follow a service's pipes as they change",
    description:
      `${STREAM} Changes made elsewhere arrive within PIPE_EVENTS_POLL_MS; the gateway's own writes at once. ` +
      'Send the key or token in Authorization (a fetch-based reader: EventSource cannot set headers).',
  })
  @ApiProduces('text/event-stream')
  @ApiQuery({
    name: 'pipeId',
    required: false,
    type: String,
    format: 'uuid',
    description: "Only this pipe's events.",
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The id of the last event received: the stream starts with the events after it.',
  })
  @ApiOkResponse({
    description: 'An open event stream.',
    content: {
      'text/event-stream': { schema: { type: 'string', example: 'id: …\nevent: pipe.state\ndata: {…}\n\n' } },
    },
  })
  @ApiProblem(
    429,
    '`too-many-streams`: the key (or person) or the tenant has PIPE_STREAMS_PER_KEY or PIPE_STREAMS_PER_TENANT ' +
      'streams open on this replica.',
    { 'Retry-After': RETRY_AFTER },
  )
  follow(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Param(pipeLocationParams) at: PipeLocation,
    @Query(eventsQuery) query: { pipeId?: string },
    @Headers('last-event-id') lastEventId: string | undefined,
    // Read from the request, not declared as a parameter: it is the security scheme's header.
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): void {
    this.events.open(
      {
        principal,
        // The guard admitted it, so it is a bearer credential.
        token: (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '').trim(),
        at,
        pipeId: query.pipeId ?? null,
        lastEventId: lastEventIdHeader(lastEventId),
      },
      reply,
    );
  }
}
