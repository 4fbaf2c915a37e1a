import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { TenantsRepositoryModule } from '../tenants/tenants-repository.module';
import { GroupMappingsRepository } from './group-mappings.repository';
import { GroupMappingsController } from './group-mappings.controller';
import { GroupMappingsService } from './group-mappings.service';
import { OidcVerifier } from './oidc-verifier';
import { SignInService } from './sign-in.service';
import { TenantGroupsRepository } from './tenant-groups.repository';
import { TenantGroupsService } from './tenant-groups.service';

/**
 * People signing in with the OIDC issuer's tokens, the groups the platform assigns to tenants and
 * the group mappings that give them roles.
 */
@Module({
  imports: [AuditModule, RateLimitModule, TenantsRepositoryModule],
  controllers: [GroupMappingsController],
  providers: [
    OidcVerifier,
    GroupMappingsRepository,
    GroupMappingsService,
    SignInService,
    TenantGroupsRepository,
    TenantGroupsService,
  ],
  exports: [OidcVerifier, GroupMappingsService, SignInService, TenantGroupsService],
})
export class SignInModule {}
