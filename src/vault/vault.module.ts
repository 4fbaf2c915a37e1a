import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { DisplayNamesModule } from '../display-names/display-names.module';
import { PipesModule } from '../pipes/pipes.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { CredentialsController } from './credentials.controller';
import { SecretReferencesModule } from './references/secret-references.module';
import { SecretPropagation } from './secret-propagation';
import { SecretUsageController } from './secret-usage.controller';
import { SecretUsers } from './secret-users';
import { VaultService } from './vault.service';

/**
 * The vault's routes (/v1/credentials): upstream credentials and vault secrets, where each secret
 * is used, and rotation that carries a new value to the pipes using it. It sits above the pipes
 * module, which resolves references through SecretReferencesModule and never imports this one.
 */
@Module({
  imports: [CredentialsModule, SecretReferencesModule, PipesModule, RateLimitModule, DisplayNamesModule],
  controllers: [CredentialsController, SecretUsageController],
  providers: [VaultService, SecretPropagation, SecretUsers],
})
export class VaultModule {}
