import { Controller, Get, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireRole } from '../auth/auth.decorators';
import type { TenantPrincipal } from '../auth/principal';
import type { Page } from '../common/pagination';
import { AuditService } from './audit.service';
import {
  AuditEventListView,
  AuditEventView,
  AuditFilterDto,
  AuditQueryDto,
  ChainVerification,
  ChainVerificationView,
} from './dto/audit.dto';
import { ValidatedQuery } from '../common/validation/validated-input';

const NDJSON = 'application/x-ndjson';

/** Review of the caller's own tenant's audit log; reading it is kept apart from every other role. */
@ApiTags('audit')
@Controller('v1/audit')
@RequireRole('auditor')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

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
    @ValidatedQuery() query: AuditQueryDto,
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
    @ValidatedQuery() query: AuditFilterDto,
  ): Promise<StreamableFile> {
    return new StreamableFile(await this.audit.exportNdjson(principal.tenantId, query), {
      type: NDJSON,
      disposition: 'attachment; filename="audit.ndjson"',
    });
  }

  @Get('verify')
  @ApiOperation({
    summary: "Check the audit log's hash chain",
    description:
      'Recomputes every hash from the first event: ok with the head, or the first event that was altered, ' +
      'removed or inserted, and why.',
  })
  @ApiOkResponse({
    type: ChainVerificationView,
    description: 'Recomputes every hash from the chain start; ok, or the first bad seq and why.',
  })
  verify(@CurrentPrincipal() principal: TenantPrincipal): Promise<ChainVerification> {
    return this.audit.verify(principal.tenantId);
  }
}
