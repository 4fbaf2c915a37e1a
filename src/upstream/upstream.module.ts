import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { UpstreamCallService } from './upstream-call.service';
import { DashboardsApiClient } from './dashboards-api.client';
import { PipesApiClient } from './pipes-api.client';
import { ValueEchoes } from './value-echoes';

@Module({
  imports: [AuditModule, CredentialsModule, RateLimitModule],
  providers: [PipesApiClient, DashboardsApiClient, UpstreamCallService, ValueEchoes],
  exports: [PipesApiClient, DashboardsApiClient, UpstreamCallService],
})
export class UpstreamModule {}
