import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthGuard } from './auth.guard';
import { KeysController } from './keys.controller';
import { KeysService } from './keys.service';

@Module({
  controllers: [KeysController],
  providers: [KeysService, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [KeysService],
})
export class AuthModule {}
