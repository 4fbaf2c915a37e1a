import { Module } from '@nestjs/common';
import { CryptoModule } from '../crypto/crypto.module';
import { AuditCheckpointService } from './audit-checkpoint.service';
import { AuditCheckpointsRepository } from './audit-checkpoints.repository';
import { AuditRetentionService } from './audit-retention.service';
import { AuditController, AuditSigningKeysController } from './audit.controller';
import { AuditEventsRepository } from './audit-events.repository';
import { AuditedUpstreamWrites } from './audited-upstream-writes';
import { AuditService } from './audit.service';

@Module({
  imports: [CryptoModule],
  controllers: [AuditController, AuditSigningKeysController],
  providers: [
    AuditEventsRepository,
    AuditCheckpointsRepository,
    AuditService,
    AuditedUpstreamWrites,
    AuditRetentionService,
    AuditCheckpointService,
  ],
  exports: [AuditService, AuditedUpstreamWrites, AuditCheckpointsRepository],
})
export class AuditModule {}
