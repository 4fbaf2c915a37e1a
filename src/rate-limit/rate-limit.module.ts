import { Module } from '@nestjs/common';
import { RateLimitService } from './rate-limit.service';
import { WriteAdmission } from './write-admission';

@Module({ providers: [RateLimitService, WriteAdmission], exports: [RateLimitService, WriteAdmission] })
export class RateLimitModule {}
