import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { UpstreamCallService } from './upstream-call.service';
import { DashboardsApiClient } from './dashboards-api.client';
import { PipesApiClient } from './pipes-api.client';

@Module({
  imports: [CredentialsModule, RateLimitModule],
  providers: [PipesApiClient, DashboardsApiClient, UpstreamCallService],
  exports: [PipesApiClient, DashboardsApiClient, UpstreamCallService],
})
export class UpstreamModule {}
