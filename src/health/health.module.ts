import { Module } from '@nestjs/common';
import { Drain } from './drain';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';

@Module({ controllers: [HealthController, MetricsController], providers: [Drain] })
export class HealthModule {}
