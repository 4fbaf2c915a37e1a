import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { PipeReadsModule } from '../pipe-reads/pipe-reads.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { PipeSpecHistoryController } from './history/pipe-spec-history.controller';
import { PipeSpecHistoryService } from './history/pipe-spec-history.service';
import { PipeSpecRecordsRepository } from './history/pipe-spec-records.repository';
import { PipesController } from './pipes.controller';
import { PipesService } from './pipes.service';
import { SecretReferencesModule } from '../vault/references/secret-references.module';

@Module({
  imports: [
    AuditModule,
    CredentialsModule,
    IdempotencyModule,
    RateLimitModule,
    UpstreamModule,
    SecretReferencesModule,
    PipeReadsModule,
  ],
  controllers: [PipesController, PipeSpecHistoryController],
  providers: [PipesService, PipeSpecHistoryService, PipeSpecRecordsRepository],
  exports: [PipesService],
})
export class PipesModule {}
