import { sqlErrorFields } from './sql-client';

/** serialization_failure and deadlock_detected: the whole transaction may simply be run again. */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);

export const TRANSACTION_ATTEMPTS_MAX = 6;
const BACKOFF_BASE_MS = 4;
const BACKOFF_CAP_MS = 250;

export function isRetryableTransactionError(error: unknown): boolean {
  const fields = sqlErrorFields(error);
  return fields !== undefined && RETRYABLE_SQLSTATES.has(fields.code);
}

/** Full jitter: a random wait up to an exponentially growing cap, so retries do not collide again. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.floor(random() * ceiling);
}
