import { Controller, Get, Headers, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, CurrentPrincipal, RequireRole } from '../auth/auth.decorators';
import { LimitWritesInFlight } from '../rate-limit/write-admission';
import type { Actor, TenantPrincipal } from '../auth/principal';
import { ifMatchHeader } from '../common/request-headers';
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
import { CheckedBody } from '../common/validation/validated-input';
import { schemaRef } from '../common/validation/json-schema';
import { checkDashboardBody } from './schema/dashboard-body';
import { DASHBOARD_BODY } from './schema/dashboard-body.schema';

@ApiTags('dashboards')
@ApiBearerAuth('gateway-key')
@ApiDashboardIdParam()
@Controller('v1/dashboards/:id')
export class DashboardsController {
  constructor(private readonly dashboards: DashboardsService) {}

  @Get()
  @RequireRole('viewer')
  @ApiDashboardQuery()
  @ApiOperation({
    summary: 'Read a dashboard',
    description: '`{data}` as the dashboards API sent it, with an ETag.',
  })
  @ApiOkResponse({ description: '`{data: dashboard}`' })
  async get(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param(dashboardPathParams) params: DashboardPath,
    @Query(dashboardQueryParams) query: DashboardQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DashboardEnvelope> {
    return withEtag(
      reply,
      await this.dashboards.get(principal.tenantId, params.id, query.credentialId, actor),
    );
  }

  @Put()
  @RequireRole('operator')
  @LimitWritesInFlight()
  @ApiDashboardQuery()
  @ApiOperation({
    summary: 'Replace a dashboard',
    description:
      'The gateway checks what it owns (tile ids, layout, sizes) and passes every other field through, so a ' +
      'dashboard read here can be written back as it came. Tiles left out are deleted upstream; dashboard fields ' +
      'left out keep their values. With If-Match, a dashboard changed since it was read is not written (412).',
  })
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description: 'The ETag from GET; without it the replace proceeds.',
  })
  @ApiBody({ schema: schemaRef('DashboardBody', DASHBOARD_BODY) })
  @ApiOkResponse({ description: '`{data: dashboard}` as updated, with its new ETag.' })
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

  @Get('versions')
  @RequireRole('viewer')
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

  @Get('versions/:n')
  @RequireRole('viewer')
  @ApiDashboardVersionParam()
  @ApiOkResponse({ type: DashboardVersionView })
  version(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Param(dashboardVersionPathParams) params: DashboardVersionPath,
  ): Promise<DashboardVersionView> {
    return this.dashboards.version(principal.tenantId, params.id, params.n);
  }

  @Post('versions/:n/restore')
  @RequireRole('operator')
  @LimitWritesInFlight()
  @ApiDashboardVersionParam()
  @ApiDashboardQuery()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Put a stored version back',
    description: 'Itself a replace: the current content becomes a new version.',
  })
  @ApiHeader({ name: 'If-Match', required: false })
  @ApiOkResponse({ description: '`{data: dashboard}` as restored.' })
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

function withEtag(reply: FastifyReply, answer: DashboardAnswer): DashboardEnvelope {
  void reply.header('etag', answer.etag);
  return answer.body;
}
