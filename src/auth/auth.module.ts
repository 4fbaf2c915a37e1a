import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuditModule } from '../audit/audit.module';
import { DeclaredInputGuard } from '../common/validation/declared-input.guard';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { SignInModule } from '../sign-in/sign-in.module';
import { AuthGuard } from './auth.guard';
import { KeysController } from './keys.controller';
import { TenantsRepositoryModule } from '../tenants/tenants-repository.module';
import { KeysRepository } from './keys.repository';
import { KeysService } from './keys.service';

@Module({
  // The guard's failed-auth and per-key limits and its token checks; the write slots of the keys
  // routes; the audit of key changes.
  imports: [AuditModule, RateLimitModule, SignInModule, TenantsRepositoryModule],
  controllers: [KeysController],
  providers: [
    KeysRepository,
    KeysService,
    // Global guards run in the order provided: a caller without a valid key hears 401 first.
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_GUARD, useClass: DeclaredInputGuard },
  ],
  exports: [KeysRepository, KeysService],
})
export class AuthModule {}
