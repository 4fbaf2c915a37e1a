import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { SignInModule } from '../sign-in/sign-in.module';
import { TenantsRepositoryModule } from '../tenants/tenants-repository.module';
import { MeController } from './me.controller';
import { MeService } from './me.service';
import { RouteOperations } from './route-operations';

/** `GET /v1/me`: who the caller is and what they may do, for frontends to offer only that. */
@Module({
  imports: [DiscoveryModule, SignInModule, TenantsRepositoryModule],
  controllers: [MeController],
  providers: [MeService, RouteOperations],
})
export class MeModule {}
