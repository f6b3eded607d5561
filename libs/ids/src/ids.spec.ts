import { describe, expect, it } from 'vitest';
import { newId, newIdBytes } from './ids';

describe('newId', () => {
  it('makes distinct version-7 UUIDs that sort by time', () => {
    const ids = Array.from({ length: 2000 }, (_, index) => newId(1_700_000_000_000 + index));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
  });
});

describe('newIdBytes', () => {
  it('makes distinct version-7 UUIDs of one millisecond, as 16 bytes each', () => {
    const bytes = newIdBytes(2000, 1_700_000_000_000);
    expect(bytes.length).toBe(2000 * 16);
    const ids = Array.from({ length: 2000 }, (_, index) => bytes.toString('hex', 16 * index, 16 * index + 16));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
      expect(id.slice(0, 12)).toBe((1_700_000_000_000).toString(16).padStart(12, '0'));
    }
    expect(newIdBytes(0).length).toBe(0);
  });
});
