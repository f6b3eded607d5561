import { describe, expect, it } from 'vitest';
import { UploadSlots } from './upload-slots';

const refusal = (take: () => unknown) => {
  try {
    take();
  } catch (error) {
    return error as { code: string; details: { retryAfterSeconds: number } };
  }
  throw new Error('not refused');
};

describe('UploadSlots', () => {
  it('refuses a third upload of one key and a fifth of one address, and frees a slot when released', () => {
    const slots = new UploadSlots({ perKeyMax: 2, perAddressMax: 4 });
    const first = slots.acquire('k1', 'a');
    slots.acquire('k1', 'a');
    expect(refusal(() => slots.acquire('k1', 'b'))).toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfterSeconds: 5 },
    });
    slots.acquire('k2', 'a');
    slots.acquire('k3', 'a');
    expect(refusal(() => slots.acquire('k4', 'a')).code).toBe('RATE_LIMITED');
    slots.acquire('k4', 'other address');
    first();
    first();
    expect(slots.inUse()).toBe(4);
    slots.acquire('k1', 'a');
    expect(refusal(() => slots.acquire('k5', 'a')).code).toBe('RATE_LIMITED');
  });
});
