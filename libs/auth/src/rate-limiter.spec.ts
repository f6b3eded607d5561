import { describe, expect, it } from 'vitest';
import { RATE_LIMITED_KEYS_MAX, RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('lets a burst through, then one request per refilled token, per key', () => {
    let now = 0;
    const limiter = new RateLimiter({ perSecond: 2, burst: 3 }, () => now);
    expect([1, 2, 3, 4].map(() => limiter.take('a'))).toEqual([0, 0, 0, 1]);
    expect(limiter.take('b')).toBe(0);
    now += 500;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(1);
    now += 10_000;
    expect([1, 2, 3, 4].map(() => limiter.take('a'))).toEqual([0, 0, 0, 1]);
  });

  it('is off at zero requests per second', () => {
    const limiter = new RateLimiter({ perSecond: 0, burst: 0 });
    for (let request = 0; request < 10_000; request++) expect(limiter.take('a')).toBe(0);
  });

  it('forgets the least recently seen key beyond its bound, so memory stays flat', () => {
    const limiter = new RateLimiter({ perSecond: 1, burst: 1 }, () => 0);
    expect(limiter.take('first')).toBe(0);
    for (let key = 0; key < RATE_LIMITED_KEYS_MAX; key++) limiter.take(`k${key}`);
    expect(limiter.take('first')).toBe(0);
  });
});
