import { describe, expect, it } from 'vitest';
import { newId, newIdDigits } from './ids';

describe('newId', () => {
  it('makes distinct version-7 UUIDs that sort by time', () => {
    const ids = Array.from({ length: 2000 }, (_, index) => newId(1_700_000_000_000 + index));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
  });
});

describe('newIdDigits', () => {
  it('makes distinct version-7 UUIDs of one millisecond, as 32 hex digits', () => {
    const ids = newIdDigits(2000, 1_700_000_000_000);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
      expect(id.slice(0, 12)).toBe((1_700_000_000_000).toString(16).padStart(12, '0'));
    }
    expect(newIdDigits(0)).toEqual([]);
  });
});
