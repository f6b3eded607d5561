import { Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotentExecution } from './idempotent-execution';
import { PurgeExpiredKeysUseCase } from './purge-expired-keys.use-case';

@Module({
  providers: [IdempotencyRepository, IdempotentExecution, PurgeExpiredKeysUseCase, IdempotencyInterceptor],
  // The routes that require a key (Idempotency) run the interceptor: their controllers' modules build it.
  exports: [PurgeExpiredKeysUseCase, IdempotentExecution, IdempotencyInterceptor],
})
export class IdempotencyModule {}
