import { describe, expect, it } from 'vitest';
import { AuthLimits, RATE_LIMITED_KEYS_MAX, RateLimiter } from './rate-limiter';

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

describe('RateLimiter.retryAfter', () => {
  it('answers whether a token is there without taking it', () => {
    let now = 0;
    const limiter = new RateLimiter({ perSecond: 1, burst: 2 }, () => now);
    expect([1, 2, 3].map(() => limiter.retryAfter('a'))).toEqual([0, 0, 0]);
    expect([1, 2, 3].map(() => limiter.take('a'))).toEqual([0, 0, 1]);
    expect(limiter.retryAfter('a')).toBe(1);
    now += 1000;
    expect(limiter.retryAfter('a')).toBe(0);
  });
});

describe('AuthLimits', () => {
  it('has a bucket per tenant beside the one per key, so that more keys buy no more requests', () => {
    const limits = new AuthLimits(
      { perKey: { perSecond: 1, burst: 3 }, perTenant: { perSecond: 1, burst: 5 } },
      () => 0,
    );
    const keys = ['k1', 'k2', 'k3'];
    const tenantAllowed = keys.flatMap(() => [1, 2, 3].map(() => limits.perTenant.take('tenant')));
    expect(tenantAllowed.filter((wait) => wait === 0)).toHaveLength(5);
  });

  it('lets an address fail N times per window, then refuses it until the window has refilled a token', () => {
    let now = 0;
    const limits = new AuthLimits({ failedAuthentications: { perAddressMax: 3, windowSeconds: 60 } }, () => now);
    for (let failure = 0; failure < 3; failure++) {
      expect(limits.failuresPerAddress.retryAfter('10.0.0.1')).toBe(0);
      limits.failuresPerAddress.take('10.0.0.1');
    }
    expect(limits.failuresPerAddress.retryAfter('10.0.0.1')).toBe(20);
    expect(limits.failuresPerAddress.retryAfter('10.0.0.2')).toBe(0);
    now += 20_000;
    expect(limits.failuresPerAddress.retryAfter('10.0.0.1')).toBe(0);
  });

  it('is off where nothing is configured', () => {
    const limits = new AuthLimits({ failedAuthentications: { perAddressMax: 0, windowSeconds: 60 } });
    for (let request = 0; request < 1000; request++) {
      expect(limits.perKey.take('k') + limits.perTenant.take('t') + limits.failuresPerAddress.take('a')).toBe(0);
    }
  });
});

describe('RateLimiter lookups', () => {
  it('tracks no id that was only looked at: lookups of many others do not push out a spent bucket', () => {
    const limiter = new RateLimiter({ perSecond: 1, burst: 2 }, () => 0);
    expect([limiter.take('a'), limiter.take('a')]).toEqual([0, 0]);
    for (let address = 0; address <= RATE_LIMITED_KEYS_MAX; address++) limiter.retryAfter(`address-${address}`);
    expect(limiter.retryAfter('a')).toBe(1);
  });

  it('refuses an id of a bucket that holds less than a token even before it was seen', () => {
    const limiter = new RateLimiter({ perSecond: 1, burst: 0.5 }, () => 0);
    expect(limiter.retryAfter('never-seen')).toBe(1);
    expect(limiter.take('never-seen')).toBe(1);
  });
});
