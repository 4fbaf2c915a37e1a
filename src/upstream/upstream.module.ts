import { Global, Module } from '@nestjs/common';
import { DashboardsApiClient } from './dashboards-api.client';
import { PipesApiClient } from './pipes-api.client';

@Global()
@Module({
  providers: [PipesApiClient, DashboardsApiClient],
  exports: [PipesApiClient, DashboardsApiClient],
})
export class UpstreamModule {}
