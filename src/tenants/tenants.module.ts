import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { SignInModule } from '../sign-in/sign-in.module';
import { TenantsController } from './tenants.controller';
import { TenantsRepositoryModule } from './tenants-repository.module';
import { TenantsService } from './tenants.service';

@Module({
  imports: [AuditModule, AuthModule, RateLimitModule, SignInModule, TenantsRepositoryModule],
  controllers: [TenantsController],
  providers: [TenantsService],
  exports: [TenantsService],
})
export class TenantsModule {}
