import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstDuplicateKey } from './json-duplicate-keys';

describe('firstDuplicateKey', () => {
  it('finds a key repeated in one object, at any depth, escapes resolved', () => {
    expect(firstDuplicateKey('{"amount":"1","amount":"1000"}')).toBe('amount');
    expect(firstDuplicateKey('{"entries":[{"a":1},{"a":2,"b":{"c":1,"c":2}}]}')).toBe('c');
    expect(firstDuplicateKey('{"\\u0061":1,"a":2}')).toBe('a');
  });

  it('lets equal keys in different objects, and values equal to keys, pass', () => {
    expect(firstDuplicateKey('[{"a":1},{"a":1}]')).toBeNull();
    expect(firstDuplicateKey('{"a":"a","b":["a","a"],"c":{"a":{"a":1}}}')).toBeNull();
    expect(firstDuplicateKey('{"a":"he said \\"a\\"","b":"\\\\"}')).toBeNull();
  });

  it('agrees with JSON.parse on any JSON text: a duplicate exactly when parsing dropped a key', () => {
    const keys = fc.constantFrom('a', 'b', 'amount', '\\u0061', 'a\\"b', '');
    const member = fc.tuple(keys, fc.oneof(fc.integer(), fc.string(), fc.constant('{}')));
    fc.assert(
      fc.property(fc.array(member, { maxLength: 6 }), (members) => {
        const valueText = (value: string | number) =>
          typeof value === 'string' && value !== '{}' ? JSON.stringify(value) : value;
        const text = `{${members.map(([key, value]) => `"${key}":${valueText(value)}`).join(',')}}`;
        const parsedKeys = Object.keys(JSON.parse(text) as object).length;
        expect(firstDuplicateKey(text) !== null).toBe(parsedKeys < members.length);
      }),
    );
  });
});
