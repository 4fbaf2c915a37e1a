import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { PipeSpecHistoryController } from './history/pipe-spec-history.controller';
import { PipeSpecHistoryService } from './history/pipe-spec-history.service';
import { PipesController } from './pipes.controller';
import { PipesService } from './pipes.service';

@Module({
  imports: [CredentialsModule],
  controllers: [PipesController, PipeSpecHistoryController],
  providers: [PipesService, PipeSpecHistoryService],
})
export class PipesModule {}
