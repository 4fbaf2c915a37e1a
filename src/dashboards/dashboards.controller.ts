import {
  applyDecorators,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, CurrentPrincipal, RequireRole } from '../auth/auth.decorators';
import { LimitWritesInFlight } from '../rate-limit/write-admission';
import type { Actor, TenantPrincipal } from '../auth/principal';
import { JSON_CONTENT_TYPE } from '../common/json-body';
import { noneMatchHolds, TextEtags } from '../common/not-modified';
import { PROBLEM_CONTENT_TYPE } from '../common/problem/problem';
import { idempotencyKeyHeader, ifMatchHeader } from '../common/request-headers';
import type { DashboardEnvelope } from '../upstream/dashboards-api.client';
import {
  DashboardVersionListView,
  DashboardVersionSummaryView,
  DashboardVersionView,
} from './dashboard-versions.dto';
import { DashboardAnswer, DashboardsService } from './dashboards.service';
import {
  ApiDashboardIdParam,
  ApiDashboardQuery,
  ApiDashboardVersionParam,
  DashboardPath,
  dashboardPathParams,
  DashboardQuery,
  dashboardQueryParams,
  DashboardVersionPath,
  dashboardVersionPathParams,
} from './dto/dashboard-params';
import { CheckedBody } from '../common/validation/checked-body';
import { schemaRef } from '../common/validation/json-schema';
import { checkDashboardBody } from './schema/dashboard-body';
import { DASHBOARD_BODY } from './schema/dashboard-body.schema';
import { DASHBOARD_ENVELOPE, DASHBOARD_LIST_ENVELOPE } from './schema/dashboard-answers.schema';
import {
  ApiIdempotencyKey,
  ApiIfMatch,
  ApiJsonBody,
  ApiProblem,
  ApiUpstreamProblems,
  ETAG_HEADER,
  RETRY_AFTER,
} from '../openapi/api-problems';

const DashboardBody = (): MethodDecorator => ApiJsonBody(schemaRef('DashboardBody', DASHBOARD_BODY));
const NoSuchVersion = (): MethodDecorator =>
  ApiProblem(404, '`not-found`: the dashboard has no stored version with that number.');
const OneWriteAtATime = (): MethodDecorator =>
  ApiProblem(
    409,
    '`dashboard-busy`: another replica was writing this dashboard and did not finish within UPSTREAM_TIMEOUT_MS; ' +
      'nothing was written. Retry after `Retry-After`.',
    { 'Retry-After': RETRY_AFTER },
  );
/**
 * What every write of the dashboards API carries: the operator role, a write slot, the credential
 * query and the dashboards API's problems; a write of an existing dashboard (`dashboard`) or of one
 * from a stored version (`version`) also names it in the path and may find it claimed by another
 * replica. Applied bottom-up, as the same decorators stacked on the handler would be.
 */
const DashboardWrite = (of: 'new' | 'dashboard' | 'version'): MethodDecorator => {
  const stacked: MethodDecorator[] = [
    RequireRole('operator'),
    ...(of === 'new' ? [] : [OneWriteAtATime()]),
    LimitWritesInFlight(),
    ...(of === 'new' ? [] : [ApiDashboardIdParam()]),
    ...(of === 'version' ? [ApiDashboardVersionParam()] : []),
    ApiDashboardQuery(),
    ApiUpstreamProblems('dashboards'),
  ];
  return applyDecorators(...stacked.reverse());
};
const NOT_MODIFIED =
  ' Send the ETag back in If-None-Match to get 304, without a body, while it is unchanged.';
const NotModified = (): MethodDecorator =>
  ApiResponse({ status: 304, description: 'Not modified: If-None-Match named the current ETag.' });
const LIST_ETAG_HEADER = {
  ETag: {
    description: 'The entity tag of this list, quotes included; send it back in If-None-Match.',
    schema: { type: 'string', example: '"5d41402abc4b2a76b9719d911017c592"' },
  },
};
const PASSED_THROUGH =
  'The gateway checks what it owns (tile ids, layout, sizes) and passes every other field through, so a ' +
  'dashboard read here can be written back as it came.';

@ApiTags('dashboards')
@Controller('v1/dashboards')
export class DashboardsController {
  private readonly listEtags = new TextEtags();

  constructor(private readonly dashboards: DashboardsService) {}

  @Get()
  @RequireRole('viewer')
  @ApiDashboardQuery()
  @ApiUpstreamProblems('dashboards')
  @ApiOperation({
    summary: 'List dashboards',
    description: `\`{data: [...]}\` as the dashboards API sent it, with an ETag.${NOT_MODIFIED}`,
  })
  @ApiOkResponse({
    description: '`{data: [dashboard, ...]}`',
    schema: DASHBOARD_LIST_ENVELOPE,
    headers: LIST_ETAG_HEADER,
  })
  @NotModified()
  async list(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Query(dashboardQueryParams) query: DashboardQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string | undefined> {
    const json = await this.dashboards.list(principal.tenantId, query.credentialId, actor);
    return unlessNotModified(reply, this.listEtags.of(json), ifNoneMatch, json);
  }

  @Post()
  @DashboardWrite('new')
  @ApiOperation({
    summary: 'Create a dashboard',
    description: `${PASSED_THROUGH} The new dashboard's content is kept as its version 1.`,
  })
  @ApiIdempotencyKey('no second dashboard')
  @DashboardBody()
  @ApiCreatedResponse({
    description: '`{data: dashboard}` with its new id, and its ETag.',
    schema: DASHBOARD_ENVELOPE,
    headers: ETAG_HEADER,
  })
  async create(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Query(dashboardQueryParams) query: DashboardQuery,
    @CheckedBody(checkDashboardBody) body: Record<string, unknown>,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const created = await this.dashboards.create(
      principal.tenantId,
      query.credentialId,
      body,
      idempotencyKeyHeader(idempotencyKey),
      actor,
    );
    void reply.status(created.status);
    if (created.etag) void reply.header('etag', created.etag);
    if (created.problem) void reply.header('content-type', PROBLEM_CONTENT_TYPE);
    return created.body;
  }

  @Get(':id')
  @RequireRole('viewer')
  @ApiDashboardIdParam()
  @ApiDashboardQuery()
  @ApiUpstreamProblems('dashboards')
  @ApiOperation({
    summary: 'Read a dashboard',
    description: `\`{data}\` as the dashboards API sent it, with an ETag to send back in If-Match.${NOT_MODIFIED}`,
  })
  @ApiOkResponse({ description: '`{data: dashboard}`', schema: DASHBOARD_ENVELOPE, headers: ETAG_HEADER })
  @NotModified()
  async get(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(dashboardPathParams) params: DashboardPath,
    @Query(dashboardQueryParams) query: DashboardQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string | undefined> {
    const read = await this.dashboards.get(principal.tenantId, params.id, query.credentialId, actor);
    return unlessNotModified(reply, read.etag, ifNoneMatch, read.json);
  }

  @Put(':id')
  @DashboardWrite('dashboard')
  @ApiOperation({
    summary: 'Replace a dashboard',
    description:
      `${PASSED_THROUGH} Tiles left out are deleted upstream; dashboard fields left out keep their values. ` +
      'The content it had is stored as a new version. With If-Match, a dashboard changed since it was read is ' +
      'not written (412).',
  })
  @ApiIfMatch()
  @DashboardBody()
  @ApiOkResponse({
    description: '`{data: dashboard}` as updated, with its new ETag.',
    schema: DASHBOARD_ENVELOPE,
    headers: ETAG_HEADER,
  })
  async replace(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(dashboardPathParams) params: DashboardPath,
    @Query(dashboardQueryParams) query: DashboardQuery,
    @CheckedBody(checkDashboardBody) body: Record<string, unknown>,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DashboardEnvelope> {
    const answer = await this.dashboards.replace(
      principal.tenantId,
      params.id,
      query.credentialId,
      body,
      ifMatchHeader(ifMatch),
      actor,
    );
    return withEtag(reply, answer);
  }

  @Delete(':id')
  @DashboardWrite('dashboard')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a dashboard',
    description:
      'Its content is kept first as the newest stored version: the versions stay listed, and restoring one ' +
      'creates the dashboard again.',
  })
  @ApiNoContentResponse({ description: 'Deleted upstream.' })
  async delete(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(dashboardPathParams) params: DashboardPath,
    @Query(dashboardQueryParams) query: DashboardQuery,
  ): Promise<void> {
    await this.dashboards.delete(principal.tenantId, params.id, query.credentialId, actor);
  }

  // Auditors too: reviewing a change in the audit log means seeing what it changed.
  @Get(':id/versions')
  @RequireRole('viewer', 'auditor')
  @ApiDashboardIdParam()
  @ApiOperation({
    summary: "List a dashboard's stored versions",
    description:
      'The content a dashboard had before each replace, restore or delete through the gateway, newest first: who ' +
      'replaced it, when, its tile count and ETag. Read from the gateway alone; empty for a dashboard never ' +
      'changed here. Open to auditors as well as viewers.',
  })
  @ApiOkResponse({
    type: DashboardVersionListView,
    description: 'Newest first: who replaced it, when, tile count.',
  })
  versions(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Param(dashboardPathParams) params: DashboardPath,
  ): Promise<{ items: DashboardVersionSummaryView[]; nextCursor: null }> {
    return this.dashboards.versions(principal.tenantId, params.id);
  }

  @Get(':id/versions/:n')
  @RequireRole('viewer', 'auditor')
  @ApiDashboardIdParam()
  @ApiDashboardVersionParam()
  @ApiOperation({
    summary: 'Read a stored version of a dashboard',
    description:
      'The whole content the dashboard had, as the dashboards API returned it, with who replaced it. Open to ' +
      'auditors as well as viewers, so a change in the audit log can be compared with what it replaced.',
  })
  @NoSuchVersion()
  @ApiOkResponse({ type: DashboardVersionView })
  version(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Param(dashboardVersionPathParams) params: DashboardVersionPath,
  ): Promise<DashboardVersionView> {
    return this.dashboards.version(principal.tenantId, params.id, params.n);
  }

  @Post(':id/versions/:n/restore')
  @DashboardWrite('version')
  @NoSuchVersion()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Put a stored version back',
    description:
      'Itself a replace: the current content becomes a new version. A dashboard the service no longer has ' +
      '(deleted) is created again from the version: the answer carries its new id, and the versions move to it.',
  })
  @ApiIfMatch()
  @ApiOkResponse({
    description: '`{data: dashboard}` as restored, with its new ETag.',
    schema: DASHBOARD_ENVELOPE,
    headers: ETAG_HEADER,
  })
  async restore(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(dashboardVersionPathParams) params: DashboardVersionPath,
    @Query(dashboardQueryParams) query: DashboardQuery,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DashboardEnvelope> {
    const answer = await this.dashboards.restore(
      principal.tenantId,
      params.id,
      params.n,
      query.credentialId,
      ifMatchHeader(ifMatch),
      actor,
    );
    return withEtag(reply, answer);
  }
}

/**
 * The read's JSON with its ETag, or 304 without a body when If-None-Match names the tag. Already
 * JSON: the same answer read again is not serialised again (UpstreamRequest.reuseAnswer).
 */
function unlessNotModified(
  reply: FastifyReply,
  etag: string,
  ifNoneMatch: string | undefined,
  json: string,
): string | undefined {
  void reply.header('etag', etag);
  if (noneMatchHolds(ifNoneMatch, etag)) {
    void reply.status(304);
    return undefined;
  }
  void reply.type(JSON_CONTENT_TYPE);
  return json;
}

function withEtag(reply: FastifyReply, answer: DashboardAnswer): DashboardEnvelope {
  void reply.header('etag', answer.etag);
  return answer.body;
}
