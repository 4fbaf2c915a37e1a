import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { TenantsRepositoryModule } from '../tenants/tenants-repository.module';
import { GroupMappingsRepository } from './group-mappings.repository';
import { GroupMappingsController } from './group-mappings.controller';
import { GroupMappingsService } from './group-mappings.service';
import { OidcVerifier } from './oidc-verifier';
import { SignInService } from './sign-in.service';

/** People signing in with the OIDC issuer's tokens, and the group mappings that give them roles. */
@Module({
  imports: [AuditModule, RateLimitModule, TenantsRepositoryModule],
  controllers: [GroupMappingsController],
  providers: [OidcVerifier, GroupMappingsRepository, GroupMappingsService, SignInService],
  exports: [OidcVerifier, GroupMappingsService, SignInService],
})
export class SignInModule {}
