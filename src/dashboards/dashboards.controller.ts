import { Body, Controller, Get, Headers, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, CurrentPrincipal, RequireRole } from '../auth/auth.decorators';
import type { Actor, TenantPrincipal } from '../auth/principal';
import { ifMatchHeader } from '../common/request-headers';
import type { DashboardEnvelope } from '../upstream/dashboards-api.client';
import {
  DashboardVersionListView,
  DashboardVersionParamsDto,
  DashboardVersionSummaryView,
  DashboardVersionView,
} from './dashboard-versions.dto';
import { DashboardAnswer, DashboardsService } from './dashboards.service';
import { DashboardIdParamDto, DashboardQueryDto } from './dto/dashboard-params.dto';
import { ReplaceDashboardDto } from './dto/replace-dashboard.dto';

@ApiTags('dashboards')
@ApiBearerAuth('gateway-key')
@Controller('v1/dashboards/:id')
export class DashboardsController {
  constructor(private readonly dashboards: DashboardsService) {}

  @Get()
  @RequireRole('viewer')
  @ApiOperation({
    summary: 'Read a dashboard',
    description: '`{data}` as the dashboards API sent it, with an ETag.',
  })
  @ApiOkResponse({ description: '`{data: dashboard}`' })
  async get(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param() params: DashboardIdParamDto,
    @Query() query: DashboardQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DashboardEnvelope> {
    return withEtag(
      reply,
      await this.dashboards.get(principal.tenantId, params.id, query.credentialId, actor),
    );
  }

  @Put()
  @RequireRole('operator')
  @ApiOperation({
    summary: 'Replace a dashboard',
    description:
      'Tiles left out are deleted upstream. With If-Match, a dashboard changed since it was read is not written (412).',
  })
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description: 'The ETag from GET; without it the replace proceeds.',
  })
  @ApiOkResponse({ description: '`{data: dashboard}` as updated, with its new ETag.' })
  async replace(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Param() params: DashboardIdParamDto,
    @Query() query: DashboardQueryDto,
    @Body() body: ReplaceDashboardDto,
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
    @Param() params: DashboardIdParamDto,
  ): Promise<{ items: DashboardVersionSummaryView[]; nextCursor: null }> {
    return this.dashboards.versions(principal.tenantId, params.id);
  }

  @Get('versions/:n')
  @RequireRole('viewer')
  @ApiOkResponse({ type: DashboardVersionView })
  version(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Param() params: DashboardVersionParamsDto,
  ): Promise<DashboardVersionView> {
    return this.dashboards.version(principal.tenantId, params.id, params.n);
  }

  @Post('versions/:n/restore')
  @RequireRole('operator')
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
    @Param() params: DashboardVersionParamsDto,
    @Query() query: DashboardQueryDto,
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
