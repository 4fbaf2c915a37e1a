import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { CryptoModule } from '../crypto/crypto.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { PipeSpecHistoryController } from './history/pipe-spec-history.controller';
import { PipeSpecHistoryService } from './history/pipe-spec-history.service';
import { PipeSpecRecordsRepository } from './history/pipe-spec-records.repository';
import { PipesController } from './pipes.controller';
import { PipesService } from './pipes.service';
import { SecretReferences } from './secret-references';
import { SecretUsesRepository } from './secret-uses.repository';
import { SecretPropagation } from './secret-propagation';
import { SecretUsageController } from './secret-usage.controller';

@Module({
  imports: [AuditModule, CredentialsModule, CryptoModule, RateLimitModule, UpstreamModule],
  controllers: [PipesController, PipeSpecHistoryController, SecretUsageController],
  providers: [
    PipesService,
    PipeSpecHistoryService,
    PipeSpecRecordsRepository,
    SecretReferences,
    SecretUsesRepository,
    SecretPropagation,
  ],
})
export class PipesModule {}
