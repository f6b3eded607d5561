import { describe, expect, it } from 'vitest';
import { SlotPool } from './slot-pool';

/** A piece of work that ends when the test says so. */
function gate() {
  let open: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { ended, open };
}

describe('SlotPool', () => {
  it('frees each slot when its own work ends, and says so each time', async () => {
    const pool = new SlotPool(2);
    let freed = 0;
    pool.whenFree(() => freed++);
    const [slow, fast] = [gate(), gate()];
    pool.start(slow.ended);
    pool.start(fast.ended);
    expect(pool.free).toBe(0);

    let slotFound = false;
    const waiting = pool.slot().then(() => (slotFound = true));
    await Promise.resolve();
    expect(slotFound, 'no slot while both run').toBe(false);
    fast.open();
    await waiting;
    expect(pool.free, 'the fast one freed its slot; the slow one still runs').toBe(1);
    expect(freed).toBe(1);

    let drained = false;
    const draining = pool.drain().then(() => (drained = true));
    await Promise.resolve();
    expect(drained).toBe(false);
    slow.open();
    await draining;
    expect(pool.free).toBe(2);
    expect(freed).toBe(2);
  });

  it('finds a slot at once while one is free', async () => {
    const pool = new SlotPool(1);
    await pool.slot();
    expect(pool.free).toBe(1);
  });
});
