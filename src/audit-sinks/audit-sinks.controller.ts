import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PlatformOnly, RequireRole } from '../auth/auth.decorators';
import { AuditSinksService } from './audit-sinks.service';
import { AuditSinkStatesView, AuditSinksView } from './dto/audit-sink.dto';

@ApiTags('platform')
@Controller('v1/admin/audit-sinks')
@PlatformOnly()
export class AuditSinksController {
  constructor(private readonly sinks: AuditSinksService) {}

  @Get()
  @ApiOperation({
    summary: 'Where the audit log is delivered, and how far behind',
    description:
      'Each configured sink (AUDIT_SYSLOG_URL, AUDIT_WEBHOOK_URL): its address without credentials, the events ' +
      'and seconds it is behind, its last delivery and its last error.',
  })
  @ApiOkResponse({ type: AuditSinksView })
  async list(): Promise<AuditSinksView> {
    return { sinks: await this.sinks.list() };
  }
}

/** Whether the audit log leaves the gateway: an auditor's check that the copy outside is kept up. */
@ApiTags('audit')
@Controller('v1/audit/sinks')
@RequireRole('auditor')
export class AuditSinkStatesController {
  constructor(private readonly sinks: AuditSinksService) {}

  @Get()
  @ApiOperation({
    summary: 'Whether the audit log reaches its sinks',
    description:
      'Each configured sink (syslog, webhook): how late it is, its last delivery and its last failure, and whether ' +
      'it fails now. Not where it delivers or why it failed: GET /v1/admin/audit-sinks, for the platform.',
  })
  @ApiOkResponse({ type: AuditSinkStatesView })
  async list(): Promise<AuditSinkStatesView> {
    return { sinks: await this.sinks.states() };
  }
}
