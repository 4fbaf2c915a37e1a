import { Module } from '@nestjs/common';
import { AuditSinksController, AuditSinkStatesController } from './audit-sinks.controller';
import { AuditSinksRepository } from './audit-sinks.repository';
import { AuditSinksService } from './audit-sinks.service';

/** Delivers the audit log to syslog and webhook sinks; it reads the log, and writes only its cursors. */
@Module({
  controllers: [AuditSinksController, AuditSinkStatesController],
  providers: [AuditSinksRepository, AuditSinksService],
})
export class AuditSinksModule {}
