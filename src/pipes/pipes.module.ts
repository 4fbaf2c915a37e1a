import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { PipeSpecHistoryController } from './history/pipe-spec-history.controller';
import { PipeSpecHistoryService } from './history/pipe-spec-history.service';
import { PipesController } from './pipes.controller';
import { PipesService } from './pipes.service';
import { SecretReferences } from './secret-references';
import { SecretUsesRepository } from './secret-uses.repository';
import { SecretPropagation } from './secret-propagation';
import { SecretUsageController } from './secret-usage.controller';

@Module({
  imports: [CredentialsModule],
  controllers: [PipesController, PipeSpecHistoryController, SecretUsageController],
  providers: [
    PipesService,
    PipeSpecHistoryService,
    SecretReferences,
    SecretUsesRepository,
    SecretPropagation,
  ],
})
export class PipesModule {}
