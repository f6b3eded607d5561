import { describe, expect, it } from 'vitest';
import { postingOperation } from './posting-metrics.hook';

describe('postingOperation', () => {
  it('names the posting routes by their last segment', () => {
    expect(postingOperation('/v1/transactions')).toBe('post');
    expect(postingOperation('/v1/transactions/')).toBe('post');
    expect(postingOperation('/v1/transactions/batch')).toBe('batch');
    expect(postingOperation('/v1/transactions/0190a1b2-0000-7000-8000-000000000001/post')).toBe('post');
    expect(postingOperation('/v1/transactions/0190a1b2-0000-7000-8000-000000000001/void')).toBe('void');
    expect(postingOperation('/v1/transactions/0190a1b2-0000-7000-8000-000000000001/reverse')).toBe('reverse');
    expect(postingOperation('/v1/transactions/0190a1b2-0000-7000-8000-000000000001')).toBe('other');
  });

  it('leaves every other path alone', () => {
    expect(postingOperation('/v1/transactionsx')).toBeUndefined();
    expect(postingOperation('/v1/accounts')).toBeUndefined();
    expect(postingOperation('/')).toBeUndefined();
  });
});
