import { Module } from '@nestjs/common';
import { CryptoModule } from '../crypto/crypto.module';
import { DisplayNamesModule } from '../display-names/display-names.module';
import { AuditCheckpointService } from './audit-checkpoint.service';
import { AuditCheckpointsRepository } from './audit-checkpoints.repository';
import { AuditRetentionService } from './audit-retention.service';
import { AuditReviewsController } from './audit-reviews.controller';
import { AuditReviewsRepository } from './audit-reviews.repository';
import { AuditReviewsService } from './audit-reviews.service';
import { AuditController, AuditSigningKeysController } from './audit.controller';
import { AuditEventsRepository } from './audit-events.repository';
import { AuditFacetsRepository } from './audit-facets.repository';
import { AuditLogReader } from './audit-log-reader';
import { AuditedUpstreamWrites } from './audited-upstream-writes';
import { AuditService } from './audit.service';

@Module({
  imports: [CryptoModule, DisplayNamesModule],
  controllers: [AuditController, AuditReviewsController, AuditSigningKeysController],
  providers: [
    AuditEventsRepository,
    AuditCheckpointsRepository,
    AuditService,
    AuditedUpstreamWrites,
    AuditRetentionService,
    AuditCheckpointService,
    AuditReviewsRepository,
    AuditReviewsService,
    AuditFacetsRepository,
    AuditLogReader,
  ],
  exports: [AuditService, AuditedUpstreamWrites, AuditCheckpointsRepository],
})
export class AuditModule {}
