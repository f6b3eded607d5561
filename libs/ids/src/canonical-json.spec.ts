import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256 } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every level so key order never changes the bytes', () => {
    const left = canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: 'x' } });
    const right = canonicalJson({ a: { c: 'x', d: [1, { y: 2, z: 1 }] }, b: 1 });
    expect(left).toBe(right);
    expect(left).toBe('{"a":{"c":"x","d":[1,{"y":2,"z":1}]},"b":1}');
  });

  it('writes bigints as strings, dates as ISO text and drops undefined members', () => {
    expect(canonicalJson({ amount: 10n, at: new Date('2026-01-02T03:04:05Z'), gone: undefined })).toBe(
      '{"amount":"10","at":"2026-01-02T03:04:05.000Z"}',
    );
  });

  it('orders keys by UTF-16 code units and writes undefined array members as null, as JSON does', () => {
    expect(canonicalJson({ b: 1, B: 2, é: 3, a: [undefined, null] })).toBe('{"B":2,"a":[null,null],"b":1,"é":3}');
  });

  it('orders few keys and many keys as the default sort does (integer-like, astral, empty keys too)', () => {
    const keys = ['10', '9', '', 'b', 'B', 'é', '\u{1f600}', '\uffff', '_', 'a1', 'a', '-1', '1.5', ' '];
    for (const count of [2, 5, keys.length, 40]) {
      const chosen = Array.from(
        { length: count },
        (_, index) => `${keys[index % keys.length]}${'~'.repeat(index / 14)}`,
      );
      const record = Object.fromEntries(chosen.reverse().map((key, index) => [key, index]));
      const expected = `{${Object.keys(record)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${record[key]}`)
        .join(',')}}`;
      expect(canonicalJson(record)).toBe(expected);
    }
  });

  it('tells different content apart', () => {
    expect(sha256(canonicalJson({ a: 1 })).equals(sha256(canonicalJson({ a: 2 })))).toBe(false);
    expect(sha256(canonicalJson([1, 2])).equals(sha256(canonicalJson([2, 1])))).toBe(false);
  });
});
