import { describe, expect, it } from 'vitest';
import { jsonContentProblem } from './json-content';

describe('jsonContentProblem', () => {
  it('measures objects and arrays alike, scalars as depth 0', () => {
    expect(jsonContentProblem('text', 0)).toBeNull();
    expect(jsonContentProblem({ a: 1 }, 1)).toBeNull();
    expect(jsonContentProblem({ a: [1] }, 1)).toEqual({ path: 'body', message: 'nests deeper than 1 levels' });
    expect(jsonContentProblem({ a: [{ b: 1 }] }, 3)).toBeNull();
  });

  it('handles nesting far beyond the call stack without recursion', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(jsonContentProblem(deep, 32)).not.toBeNull();
  });

  it('names a NUL character or half a surrogate pair in any value or key, with its path', () => {
    expect(jsonContentProblem({ description: 'a\u0000b' }, 32)).toEqual({
      path: 'body.description',
      message: 'contains a NUL character',
    });
    expect(jsonContentProblem({ metadata: { 'k\u0000': 1 } }, 32)).toEqual({
      path: 'body.metadata.k\u0000',
      message: 'key contains a NUL character',
    });
    expect(jsonContentProblem({ entries: [{ account: 'x\ud800' }] }, 32)).toEqual({
      path: 'body.entries.0.account',
      message: 'contains half of a UTF-16 surrogate pair',
    });
    expect(jsonContentProblem({ emoji: '💶', accents: 'Zürich', rtl: '\u202e' }, 32)).toBeNull();
  });
});
