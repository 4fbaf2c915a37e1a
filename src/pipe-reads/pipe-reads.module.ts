import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { PipeReads } from './pipe-reads.service';
import { SharedReads } from './shared-reads';

@Module({
  imports: [CredentialsModule],
  providers: [PipeReads, SharedReads],
  exports: [PipeReads],
})
export class PipeReadsModule {}
