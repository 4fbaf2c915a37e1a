import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { PipeReadsModule } from '../pipe-reads/pipe-reads.module';
import { PipesModule } from '../pipes/pipes.module';
import { SignInModule } from '../sign-in/sign-in.module';
import { PipeEventsController } from './pipe-events.controller';
import { PipeEvents } from './pipe-events.service';
import { StreamAccess } from './stream-access';

@Module({
  imports: [PipesModule, PipeReadsModule, AuthModule, SignInModule],
  controllers: [PipeEventsController],
  providers: [PipeEvents, StreamAccess],
  exports: [PipeEvents],
})
export class PipeEventsModule {}
