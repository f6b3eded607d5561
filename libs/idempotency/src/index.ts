export { IdempotencyModule } from './idempotency.module';
export {
  Idempotency,
  ReplayedResponse,
  RequestKey,
  assertPostsStateIdempotency,
  type IdempotencyOptions,
} from './idempotency.interceptor';
export {
  IdempotentExecution,
  IDEMPOTENCY_KEY_TTL_SECONDS,
  type KeyInTransaction,
  type Outcome,
} from './idempotent-execution';
export { PurgeExpiredKeysUseCase } from './purge-expired-keys.use-case';
