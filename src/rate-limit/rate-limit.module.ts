import { Module } from '@nestjs/common';
import { RateLimitService } from './rate-limit.service';
import { UpstreamBudgets } from './upstream-budgets';
import { WriteAdmission } from './write-admission';

@Module({
  providers: [RateLimitService, UpstreamBudgets, WriteAdmission],
  exports: [RateLimitService, UpstreamBudgets, WriteAdmission],
})
export class RateLimitModule {}
