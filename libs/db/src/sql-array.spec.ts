import { describe, expect, it } from 'vitest';
import { SqlArray } from './sql-array';

describe('SqlArray', () => {
  it('gives back every element it was given, nulls included', () => {
    const text = ['a', '', 'say "hi"', 'back\\slash', 'Zürich 東京 😀', '{"a":1}'];
    expect(SqlArray.of('text', [...text, null]).values()).toEqual([...text, null]);
    expect(SqlArray.of('int4', [0, -1, 2 ** 31 - 1, -(2 ** 31)]).values()).toEqual([0, -1, 2 ** 31 - 1, -(2 ** 31)]);
    expect(SqlArray.of('int8', [2n ** 63n - 1n, -(2n ** 63n), 0n, null]).values()).toEqual([
      2n ** 63n - 1n,
      -(2n ** 63n),
      0n,
      null,
    ]);
    const dates = ['2000-01-01', '1999-12-31', '2024-02-29', '0001-01-01', '9999-12-31', '1970-01-01'];
    expect(SqlArray.of('date', dates).values()).toEqual(dates);
    expect(SqlArray.of('bool', [true, false, null]).values()).toEqual([true, false, null]);
    const id = '0192f0c1-2d3e-7f40-8a5b-6c7d8e9fa0b1';
    expect(SqlArray.of('uuid', [id, id.replaceAll('-', '').toUpperCase()]).values()).toEqual([id, id]);
  });

  it('writes the binary format PostgreSQL reads: header, dimension, then a length before each element', () => {
    const bytes = SqlArray.of('int4', [7, null]).bytes();
    const words = [0, 4, 8, 12, 16, 20, 24, 28].map((at) => bytes.readInt32BE(at));
    // one dimension, has a null, int4 (OID 23), two elements from index 1; 4 bytes of 7; a NULL.
    expect(words).toEqual([1, 1, 23, 2, 1, 4, 7, -1]);
    expect(bytes.length).toBe(32);
    const empty = SqlArray.of('text').bytes();
    expect([0, 4, 8].map((at) => empty.readInt32BE(at))).toEqual([0, 0, 25]);
    expect(empty.length).toBe(12);
  });

  it('takes UUIDs as 16 bytes each, laid end to end', () => {
    const bytes = Buffer.from('0192f0c12d3e7f408a5b6c7d8e9fa0b1ffffffffffff7fffbfffffffffffffff', 'hex');
    expect(SqlArray.ofUuidBytes(bytes).values()).toEqual([
      '0192f0c1-2d3e-7f40-8a5b-6c7d8e9fa0b1',
      'ffffffff-ffff-7fff-bfff-ffffffffffff',
    ]);
    expect(SqlArray.ofUuidBytes(Buffer.alloc(0)).length).toBe(0);
    expect(() => SqlArray.ofUuidBytes(Buffer.alloc(17))).toThrow(TypeError);
  });

  it('grows past its first buffer', () => {
    const long = 'x'.repeat(10_000);
    const values = Array.from({ length: 50 }, (_, index) => `${index}${long}`);
    expect(SqlArray.of('text', values).values()).toEqual(values);
  });

  it('refuses a value that is not of its element type, and writes nothing of it', () => {
    const cases: [Parameters<typeof SqlArray.of>[0], unknown][] = [
      ['int4', 1.5],
      ['int4', 2 ** 31],
      ['int4', '1'],
      ['int8', 2n ** 63n],
      ['int8', 1],
      ['date', '2023-02-29'],
      ['date', '2023-13-01'],
      ['date', '2023-1-01'],
      ['date', '0000-01-01'],
      ['bool', 1],
      ['uuid', 'not-a-uuid'],
      ['uuid', '0192f0c1-2d3e-7f40-8a5b-6c7d8e9fa0bz'],
      ['text', 5],
    ];
    for (const [element, value] of cases) {
      const array = SqlArray.of(element) as SqlArray<typeof element>;
      expect(() => array.push(value as never), `${element} ${String(value)}`).toThrow(TypeError);
      expect(array.length).toBe(0);
      expect(array.bytes().length).toBe(12);
    }
  });
});

describe('SqlArray dates', () => {
  it('writes every day of 1895 to 2105 as the same day', () => {
    const dates: string[] = [];
    for (let time = Date.UTC(1895, 0, 1); time <= Date.UTC(2105, 11, 31); time += 86_400_000)
      dates.push(new Date(time).toISOString().slice(0, 10));
    expect(SqlArray.of('date', dates).values()).toEqual(dates);
  });
});
