import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { PipeReads } from './pipe-reads.service';

@Module({
  imports: [CredentialsModule],
  providers: [PipeReads],
  exports: [PipeReads],
})
export class PipeReadsModule {}
