import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AMOUNT_MINOR_MAX,
  decimalToMinor,
  MoneyError,
  type MoneyErrorCode,
  minorToDecimal,
  parseMinorUnits,
} from './money';

function errorOf(run: () => unknown): MoneyError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(MoneyError);
    return error as MoneyError;
  }
  throw new Error('expected a MoneyError, nothing was thrown');
}

function expectCode(run: () => unknown, code: MoneyErrorCode): void {
  expect(errorOf(run).code).toBe(code);
}

describe('AMOUNT_MINOR_MAX', () => {
  it('is the PostgreSQL bigint maximum', () => {
    expect(AMOUNT_MINOR_MAX).toBe(9223372036854775807n);
  });
});

describe('MoneyError', () => {
  it('is an Error with a stable code and a message quoting the input', () => {
    const error = errorOf(() => parseMinorUnits(' 12'));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('MoneyError');
    expect(error.code).toBe('INVALID_AMOUNT');
    expect(error.message).toContain('" 12"');
  });

  it('shortens very long inputs in the message', () => {
    const error = errorOf(() => decimalToMinor('x'.repeat(10_000), 'USD'));
    expect(error.message.length).toBeLessThan(200);
  });

  it('names the offending currency', () => {
    expect(errorOf(() => minorToDecimal(1n, 'usd')).message).toContain('"usd"');
  });
});

describe('parseMinorUnits', () => {
  it.each([
    ['0', 0n],
    ['1', 1n],
    ['1050', 1050n],
    ['9223372036854775807', AMOUNT_MINOR_MAX],
  ])('reads %j', (text, expected) => {
    expect(parseMinorUnits(text)).toBe(expected);
  });

  it.each(['9223372036854775808', '9999999999999999999', '10000000000000000000', '1'.repeat(400)])(
    'rejects %j as out of range',
    (text) => expectCode(() => parseMinorUnits(text), 'AMOUNT_OUT_OF_RANGE'),
  );

  it.each([
    '',
    '-1',
    '+1',
    '-0',
    '01',
    '00',
    '0'.repeat(25),
    ' 1',
    '1 ',
    '1\n',
    '1.0',
    '10.50',
    '1e5',
    '1_000',
    '1,000',
    '0x10',
    'abc',
    'NaN',
    'Infinity',
    '١٢',
    '１２',
    `${'1'.repeat(20)}a`,
  ])('rejects %j as invalid', (text) => expectCode(() => parseMinorUnits(text), 'INVALID_AMOUNT'));

  it.each([1050, 1050n, null, undefined, {}])('rejects the non-string %s', (value) => {
    expectCode(() => parseMinorUnits(value as unknown as string), 'INVALID_AMOUNT');
  });

  it('reads back every in-range amount it is given as digits', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: AMOUNT_MINOR_MAX }), (amountMinor) => {
        expect(parseMinorUnits(amountMinor.toString())).toBe(amountMinor);
      }),
    );
  });
});

describe('decimalToMinor', () => {
  it.each([
    ['1234.56', 'USD', 123456n],
    ['-12.5', 'USD', -1250n],
    ['+3', 'USD', 300n],
    ['12.500', 'USD', 1250n],
    ['0.05', 'USD', 5n],
    ['-0.05', 'USD', -5n],
    ['-0', 'USD', 0n],
    ['-0.00', 'EUR', 0n],
    ['007.50', 'USD', 750n],
    ['1050', 'JPY', 1050n],
    ['1050.000', 'JPY', 1050n],
    ['-7', 'KRW', -7n],
    ['1', 'BHD', 1000n],
    ['1.234', 'BHD', 1234n],
    ['0.001', 'KWD', 1n],
    ['1.2345', 'CLF', 12345n],
    [`12.5${'0'.repeat(80)}`, 'USD', 1250n],
  ])('reads %j %s', (text, currency, expected) => {
    expect(decimalToMinor(text, currency)).toBe(expected);
  });

  it.each([
    ['12.345', 'USD'],
    ['0.001', 'EUR'],
    ['1050.5', 'JPY'],
    ['1.2345', 'BHD'],
    ['1.00001', 'CLF'],
    ['-0.009', 'USD'],
    // A nonzero digit far past any fixed precision must still be noticed, not rounded away.
    [`0.01${'0'.repeat(70)}1`, 'USD'],
  ])('rejects %j %s as inexact', (text, currency) => {
    expectCode(() => decimalToMinor(text, currency), 'INEXACT_AMOUNT');
  });

  describe('range', () => {
    it('accepts the largest magnitude in both signs', () => {
      expect(decimalToMinor('92233720368547758.07', 'USD')).toBe(AMOUNT_MINOR_MAX);
      expect(decimalToMinor('-92233720368547758.07', 'USD')).toBe(-AMOUNT_MINOR_MAX);
      expect(decimalToMinor('9223372036854775807', 'JPY')).toBe(AMOUNT_MINOR_MAX);
      expect(decimalToMinor('922337203685477.5807', 'CLF')).toBe(AMOUNT_MINOR_MAX);
      expect(decimalToMinor('92,233,720,368,547,758.07', 'USD', { thousandsSeparator: ',' })).toBe(AMOUNT_MINOR_MAX);
    });

    it.each([
      ['92233720368547758.08', 'USD'],
      ['-92233720368547758.08', 'USD'],
      ['9223372036854775808', 'JPY'],
      ['-9223372036854775808', 'JPY'],
      ['9223372036854775.808', 'BHD'],
      [`1${'0'.repeat(1000)}`, 'USD'],
    ])('rejects %j %s', (text, currency) => {
      expectCode(() => decimalToMinor(text, currency), 'AMOUNT_OUT_OF_RANGE');
    });
  });

  describe('separators', () => {
    it.each([
      ['1.234,56', { decimalSeparator: ',', thousandsSeparator: '.' }, 123456n],
      ['-1.234.567,8', { decimalSeparator: ',', thousandsSeparator: '.' }, -123456780n],
      ['1 234 567,89', { decimalSeparator: ',', thousandsSeparator: ' ' }, 123456789n],
      ["1'234.56", { thousandsSeparator: "'" }, 123456n],
      ['1,234,567.89', { thousandsSeparator: ',' }, 123456789n],
      ['1234.56', { thousandsSeparator: ',' }, 123456n],
      ['999,999.99', { thousandsSeparator: ',' }, 99999999n],
      ['12,5', { decimalSeparator: ',' }, 1250n],
      ['12.50', { decimalSeparator: '.', thousandsSeparator: '' }, 1250n],
    ] as const)('reads %j with %j', (text, options, expected) => {
      expect(decimalToMinor(text, 'EUR', options)).toBe(expected);
    });

    it.each([
      ['1,23,456.00', { thousandsSeparator: ',' }],
      ['12,34.00', { thousandsSeparator: ',' }],
      ['1234,567.00', { thousandsSeparator: ',' }],
      [',123.00', { thousandsSeparator: ',' }],
      ['1,234,', { thousandsSeparator: ',' }],
      ['1,,234', { thousandsSeparator: ',' }],
      ['1,234.5,6', { thousandsSeparator: ',' }],
      ['1,234.56', {}],
      ['1 234.56', {}],
      ['12.5', { decimalSeparator: ',' }],
      ['1.234,56', { decimalSeparator: ',' }],
      ['1.234.56', { decimalSeparator: ',', thousandsSeparator: '.' }],
      ['1 234,56', { decimalSeparator: ',', thousandsSeparator: '.' }],
      ['1\u00a0234,56', { decimalSeparator: ',', thousandsSeparator: ' ' }],
      ['1  234,56', { decimalSeparator: ',', thousandsSeparator: ' ' }],
    ] as const)('rejects %j with %j', (text, options) => {
      expectCode(() => decimalToMinor(text, 'EUR', options), 'INVALID_AMOUNT');
    });

    it('refuses ambiguous or unknown separator options as a programming error', () => {
      expect(() => decimalToMinor('1.5', 'EUR', { thousandsSeparator: '.' })).toThrow(RangeError);
      expect(() => decimalToMinor('1,5', 'EUR', { decimalSeparator: ',', thousandsSeparator: ',' })).toThrow(
        RangeError,
      );
      const unknown = { decimalSeparator: ';' } as unknown as { decimalSeparator: '.' };
      expect(() => decimalToMinor('1;5', 'EUR', unknown)).toThrow(RangeError);
    });
  });

  it.each([
    '',
    ' ',
    ' 12.5',
    '12.5 ',
    '\t1',
    '1\n',
    '--1',
    '+-1',
    '-+1',
    '1-',
    '1e5',
    '1E5',
    '1.5e2',
    'NaN',
    'Infinity',
    '-Infinity',
    '.5',
    '5.',
    '-.5',
    '1.2.3',
    'abc',
    '12a',
    '0x10',
    '0b1',
    '1_000',
    '１２',
    '\u221212',
    '(12.50)',
    '$12',
    '12 USD',
  ])('rejects %j as invalid', (text) => {
    expectCode(() => decimalToMinor(text, 'USD'), 'INVALID_AMOUNT');
  });

  it.each([12.5, 12n, null, undefined])('rejects the non-string %s', (value) => {
    expectCode(() => decimalToMinor(value as unknown as string, 'USD'), 'INVALID_AMOUNT');
  });

  it.each(['usd', 'XAU', 'XXX', 'ABC', '', 'constructor'])('rejects the currency %j', (currency) => {
    expectCode(() => decimalToMinor('1', currency), 'UNKNOWN_CURRENCY');
  });

  it('checks the currency before the amount', () => {
    expectCode(() => decimalToMinor('not a number', 'XYZ'), 'UNKNOWN_CURRENCY');
  });
});

describe('minorToDecimal', () => {
  it.each([
    [-5n, 'USD', '-0.05'],
    [5n, 'USD', '0.05'],
    [0n, 'USD', '0.00'],
    [-100n, 'USD', '-1.00'],
    [123456n, 'EUR', '1234.56'],
    [1050n, 'JPY', '1050'],
    [-1050n, 'JPY', '-1050'],
    [0n, 'JPY', '0'],
    [1000n, 'BHD', '1.000'],
    [1n, 'BHD', '0.001'],
    [1n, 'CLF', '0.0001'],
    [AMOUNT_MINOR_MAX, 'USD', '92233720368547758.07'],
    [-AMOUNT_MINOR_MAX, 'USD', '-92233720368547758.07'],
    [2n ** 70n, 'USD', '11805916207174113034.24'],
  ])('formats %s %s as %j', (amountMinor, currency, expected) => {
    expect(minorToDecimal(amountMinor, currency)).toBe(expected);
  });

  it('rejects an unknown currency', () => {
    expectCode(() => minorToDecimal(1n, 'XAU'), 'UNKNOWN_CURRENCY');
  });

  it('refuses a JS number, which is never a money value here', () => {
    expect(() => minorToDecimal(5 as unknown as bigint, 'USD')).toThrow(TypeError);
  });
});
