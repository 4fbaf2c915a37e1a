import { Module } from '@nestjs/common';
import { CryptoModule } from '../crypto/crypto.module';
import { IdempotencyStore } from './idempotency-store';
import { IdempotentRequestsRepository } from './idempotent-requests.repository';

/** Creates sent with an Idempotency-Key: one store for every kind of create. */
@Module({
  imports: [CryptoModule],
  providers: [IdempotentRequestsRepository, IdempotencyStore],
  exports: [IdempotencyStore],
})
export class IdempotencyModule {}
