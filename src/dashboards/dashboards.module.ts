import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { DashboardsController } from './dashboards.controller';
import { DashboardsService } from './dashboards.service';
import { DashboardWrites } from './dashboard-writes';
import { DashboardWriteHeadsRepository } from './dashboard-write-heads.repository';
import { DashboardVersionsRepository } from './dashboard-versions.repository';

@Module({
  imports: [AuditModule, CredentialsModule, IdempotencyModule, RateLimitModule, UpstreamModule],
  controllers: [DashboardsController],
  providers: [DashboardsService, DashboardVersionsRepository, DashboardWriteHeadsRepository, DashboardWrites],
})
export class DashboardsModule {}
