import { Global, Module } from '@nestjs/common';
import { AuditCheckpointService } from './audit-checkpoint.service';
import { AuditRetentionService } from './audit-retention.service';
import { AuditController } from './audit.controller';
import { AuditService } from './audit.service';

@Global()
@Module({
  controllers: [AuditController],
  providers: [AuditService, AuditRetentionService, AuditCheckpointService],
  exports: [AuditService],
})
export class AuditModule {}
