import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotentExecution } from './idempotent-execution';
import { PurgeExpiredKeysUseCase } from './purge-expired-keys.use-case';

@Module({
  providers: [
    IdempotencyRepository,
    IdempotentExecution,
    PurgeExpiredKeysUseCase,
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
  exports: [PurgeExpiredKeysUseCase, IdempotentExecution],
})
export class IdempotencyModule {}
