import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PlatformOnly } from '../auth/auth.decorators';
import { AuditSinksService } from './audit-sinks.service';
import { AuditSinksView } from './dto/audit-sink.dto';

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
