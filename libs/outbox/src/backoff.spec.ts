import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from './backoff';

describe('backoffDelayMs', () => {
  it('grows exponentially up to the cap, scaled by the jitter', () => {
    const top = () => 0.999999;
    expect(backoffDelayMs(1, 100, 10_000, top)).toBe(99);
    expect(backoffDelayMs(4, 100, 10_000, top)).toBe(799);
    expect(backoffDelayMs(30, 100, 10_000, top)).toBe(9_999);
  });

  it('is anywhere from zero (full jitter)', () => {
    expect(backoffDelayMs(5, 100, 10_000, () => 0)).toBe(0);
  });
});
