import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { SignInModule } from '../sign-in/sign-in.module';
import { TenantsController } from './tenants.controller';
import { TenantsService } from './tenants.service';

@Module({
  imports: [AuthModule, SignInModule],
  controllers: [TenantsController],
  providers: [TenantsService],
  exports: [TenantsService],
})
export class TenantsModule {}
