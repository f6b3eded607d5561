import { describe, expect, it } from 'vitest';
import { isRetryableTransactionError, retryDelayMs } from './transaction-retry';

describe('transaction retry policy', () => {
  it('retries serialization failures and deadlocks only', () => {
    expect(isRetryableTransactionError({ code: '40001' })).toBe(true);
    expect(isRetryableTransactionError({ code: '40P01' })).toBe(true);
    expect(isRetryableTransactionError({ code: '23505' })).toBe(false);
    expect(isRetryableTransactionError(new Error('boom'))).toBe(false);
  });

  it('waits a random time under an exponentially growing, capped ceiling', () => {
    expect(retryDelayMs(1, () => 0.999)).toBeLessThan(8);
    expect(retryDelayMs(3, () => 0.999)).toBeLessThan(32);
    expect(retryDelayMs(20, () => 0.999)).toBeLessThan(250);
    expect(retryDelayMs(5, () => 0)).toBe(0);
  });
});
