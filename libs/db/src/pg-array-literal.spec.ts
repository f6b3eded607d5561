import { describe, expect, it } from 'vitest';
import { pgArrayLiteral } from './pg-array-literal';

describe('pgArrayLiteral', () => {
  it('quotes text, escapes quotes and backslashes, and spells NULL', () => {
    expect(pgArrayLiteral(['a', 'NULL', 'say "hi"', 'back\\slash', '', null, undefined])).toBe(
      '{"a","NULL","say \\"hi\\"","back\\\\slash","",NULL,NULL}',
    );
  });

  it('escapes a backslash before a quote once each', () => {
    expect(pgArrayLiteral(['{"a":"b\\\\\\"c"}', null])).toBe('{"{\\"a\\":\\"b\\\\\\\\\\\\\\"c\\"}",NULL}');
  });

  it('writes numbers, bigints, booleans, dates and bytes', () => {
    expect(pgArrayLiteral([1, 2n ** 63n - 1n, -5n, true, false])).toBe('{1,9223372036854775807,-5,t,f}');
    expect(pgArrayLiteral([new Date('2026-01-02T03:04:05.678Z')])).toBe('{"2026-01-02T03:04:05.678Z"}');
    expect(pgArrayLiteral([Buffer.from([0, 255])])).toBe('{"\\\\x00ff"}');
  });

  it('writes plain text, number and mixed arrays', () => {
    expect(pgArrayLiteral(['a', 'b c', ''])).toBe('{"a","b c",""}');
    expect(pgArrayLiteral([1, -2n, 3.5])).toBe('{1,-2,3.5}');
    expect(pgArrayLiteral(['a', 'b"'])).toBe('{"a","b\\""}');
    expect(pgArrayLiteral([1, null])).toBe('{1,NULL}');
    expect(pgArrayLiteral([])).toBe('{}');
  });

  it('escapes the quotes of JSON and XML texts, and passes every other character as it is', () => {
    const texts = ['{"a":"1"}', '<Amt Ccy="EUR">1.00</Amt>', '', '"'];
    const expected = '{"{\\"a\\":\\"1\\"}","<Amt Ccy=\\"EUR\\">1.00</Amt>","","\\""}';
    expect(pgArrayLiteral(texts)).toBe(expected);
    expect(pgArrayLiteral([...texts, null])).toBe(`${expected.slice(0, -1)},NULL}`);
    expect(pgArrayLiteral(['a"', 'b\u0000c'])).toBe('{"a\\"","b\u0000c"}');
  });

  it('refuses what it cannot write', () => {
    expect(() => pgArrayLiteral([{}])).toThrow(TypeError);
  });
});
