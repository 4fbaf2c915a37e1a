import { Module } from '@nestjs/common';
import { TenantsRepository } from './tenants.repository';

/**
 * The tenants table on its own: keys, group mappings and the caller's view read it, and the
 * tenants module, which imports theirs, writes it.
 */
@Module({ providers: [TenantsRepository], exports: [TenantsRepository] })
export class TenantsRepositoryModule {}
