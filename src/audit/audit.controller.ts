import { Body, Controller, Get, HttpCode, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireRole } from '../auth/auth.decorators';
import type { TenantPrincipal } from '../auth/principal';
import type { Page } from '../common/pagination';
import { AuditCheckpointService } from './audit-checkpoint.service';
import type { AuditCheckpoint } from './audit-checkpoint';
import { AuditService } from './audit.service';
import {
  AuditCheckpointView,
  AuditEventListView,
  AuditEventView,
  AuditFilterDto,
  AuditQueryDto,
  ChainVerification,
  ChainVerificationView,
  VerifyAgainstCheckpointDto,
} from './dto/audit.dto';
import { ApiJsonBody, ApiProblem } from '../openapi/api-problems';

const NDJSON = 'application/x-ndjson';

/** Review of the caller's own tenant's audit log; reading it is kept apart from every other role. */
@ApiTags('audit')
@Controller('v1/audit')
@RequireRole('auditor')
export class AuditController {
  constructor(
    private readonly audit: AuditService,
    private readonly checkpoints: AuditCheckpointService,
  ) {}

  @Get()
  @ApiOperation({
    summary: "Review the tenant's audit log",
    description:
      'Every state-changing call and every credential use, newest first, in keyset pages; the filters narrow it. ' +
      'Secrets were replaced by "[redacted]" before an event was written.',
  })
  @ApiOkResponse({
    type: AuditEventListView,
    description: 'Newest first; follow nextCursor for older events.',
  })
  list(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Query() query: AuditQueryDto,
  ): Promise<Page<AuditEventView>> {
    return this.audit.list(principal.tenantId, query);
  }

  @Get('export')
  @ApiOperation({
    summary: "Export the tenant's audit log",
    description:
      'Newline-delimited JSON, one event per line, oldest first, streamed; the same filters as the list.',
  })
  @ApiProduces(NDJSON)
  @ApiOkResponse({
    description:
      'One event per line (the list item shape), oldest first, streamed; same filters as the list.',
    content: { [NDJSON]: { schema: { type: 'string' } } },
  })
  async export(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Query() query: AuditFilterDto,
  ): Promise<StreamableFile> {
    return new StreamableFile(await this.audit.exportNdjson(principal.tenantId, query), {
      type: NDJSON,
      disposition: 'attachment; filename="audit.ndjson"',
    });
  }

  @Get('verify')
  @ApiOperation({
    summary: 'Verify the audit chain',
    description:
      'Recomputes every event of the chain from its start (HMAC under the chain key each event names; ' +
      'plain SHA-256 for legacy events) and checks every link up to the recorded head. A database writer ' +
      'without the chain key cannot make an edited event pass; to find the newest events cut off, verify ' +
      'against a kept checkpoint (POST).',
  })
  @ApiOkResponse({ type: ChainVerificationView, description: 'ok, or the first bad seq and why.' })
  verify(@CurrentPrincipal() principal: TenantPrincipal): Promise<ChainVerification> {
    return this.audit.verify(principal.tenantId);
  }

  @Post('verify')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Verify the audit chain against a kept checkpoint',
    description:
      'The same verification, and the chain must still pass through the checkpoint: an event there that is ' +
      'not the one it signed is `checkpoint mismatch`, a chain that ends before it is `truncated`. Changes ' +
      'nothing.',
  })
  @ApiJsonBody()
  @ApiOkResponse({ type: ChainVerificationView, description: 'ok, or the first bad seq and why.' })
  @ApiProblem(422, '`checkpoint-not-genuine`: not signed by this gateway for this tenant, or changed since.')
  verifyAgainstCheckpoint(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Body() body: VerifyAgainstCheckpointDto,
  ): Promise<ChainVerification> {
    return this.checkpoints.verifyAgainst(principal.tenantId, body.checkpoint);
  }

  @Get('checkpoint')
  @ApiOperation({
    summary: 'A signed checkpoint of the audit chain head',
    description:
      'Keep it outside the gateway (and its database), then give it back to POST /v1/audit/verify: the chain ' +
      'must still reach it. The checkpoint is also written to the log; the gateway logs one for each tenant ' +
      'whose head moved every AUDIT_CHECKPOINT_INTERVAL.',
  })
  @ApiOkResponse({ type: AuditCheckpointView })
  checkpoint(@CurrentPrincipal() principal: TenantPrincipal): Promise<AuditCheckpoint> {
    return this.checkpoints.checkpoint(principal.tenantId);
  }
}
