import { Global, Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { UpstreamCallService } from './upstream-call.service';
import { DashboardsApiClient } from './dashboards-api.client';
import { PipesApiClient } from './pipes-api.client';

@Global()
@Module({
  imports: [CredentialsModule],
  providers: [PipesApiClient, DashboardsApiClient, UpstreamCallService],
  exports: [PipesApiClient, DashboardsApiClient, UpstreamCallService],
})
export class UpstreamModule {}
