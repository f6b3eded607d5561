import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds } from './json-depth.middleware';

describe('jsonDepthExceeds', () => {
  it('measures objects and arrays alike, scalars as depth 0', () => {
    expect(jsonDepthExceeds('text', 0)).toBe(false);
    expect(jsonDepthExceeds({ a: 1 }, 1)).toBe(false);
    expect(jsonDepthExceeds({ a: [1] }, 1)).toBe(true);
    expect(jsonDepthExceeds({ a: [{ b: 1 }] }, 3)).toBe(false);
  });

  it('handles nesting far beyond the call stack without recursion', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(jsonDepthExceeds(deep, 32)).toBe(true);
  });
});
