import { describe, expect, it } from 'vitest';
import { collectStatement, IDENTICAL_LINE_KEYS_PER_STATEMENT_MAX } from '@ledger/imports';
import { textInput } from '../../test/statement-files';
import { detailDirection } from './bai2-fields';
import { BAI2_CONTINUATIONS_PER_RECORD_MAX, FieldCursor } from './bai2-records';

const HEADER = ['01,BANK,CUSTOMER,261201,0600,F1,,,2/', '02,CUSTOMER,BANK,1,261201,2400,,2/'];

/** A file of one group and one account, with trailers whose figures are left blank (not checked). */
function oneAccount(account: string, details: string[]): string {
  return [...HEADER, account, ...details, '49,,/', '98,,,/', '99,,,/'].join('\n');
}

const collect = (text: string) => collectStatement('bai2', textInput(text, 5), { linesMax: 100 });

describe('FieldCursor', () => {
  it('reads fields across continuation lines: a "/" ends a line\'s fields, the next field is in the 88', () => {
    const cursor = new FieldCursor(['A,,B/', 'C,D', 'E/ignored']);
    expect([cursor.next(), cursor.next(), cursor.next(), cursor.next(), cursor.next(), cursor.next()]).toEqual([
      'A',
      '',
      'B',
      'C',
      'D',
      'E',
    ]);
    expect(cursor.hasMore()).toBe(false);
    expect(cursor.next()).toBe('');
  });

  it('takes the text as the rest of the record, commas and slashes included, 88s joined as written', () => {
    const cursor = new FieldCursor(['115,100,0,BR,CR,Text, with / slash and a wrapped wo', 'rd/']);
    expect([cursor.next(), cursor.next(), cursor.next(), cursor.next(), cursor.next()]).toEqual([
      '115',
      '100',
      '0',
      'BR',
      'CR',
    ]);
    expect(cursor.text()).toBe('Text, with / slash and a wrapped word');
  });

  it('joins a text line that ended with "/" or padding spaces to the next with one space', () => {
    const cursor = new FieldCursor(['CR,Paid to ACME/', 'for invoice 12   ', 'of May', '']);
    expect(cursor.next()).toBe('CR');
    expect(cursor.text()).toBe('Paid to ACME for invoice 12 of May');
  });

  it('finds no text in "16,699,971,,,/" and takes it from the 88 that follows', () => {
    const cursor = new FieldCursor(['699,971,,,/', 'RELAY TFR']);
    expect([cursor.next(), cursor.next(), cursor.next(), cursor.next(), cursor.next()]).toEqual([
      '699',
      '971',
      '',
      '',
      '',
    ]);
    expect(cursor.text()).toBe('RELAY TFR');
  });
});

describe('detailDirection', () => {
  it('follows the BAI2 ranges exactly at every boundary', () => {
    const direction = (code: string) => {
      const read = detailDirection(code);
      return read.ok ? read.value : 'error';
    };
    expect(['000', '001', '099', '100', '399', '400', '699', '700', '799', '899', '900', '999'].map(direction)).toEqual(
      [
        'error',
        'error',
        'error',
        'credit',
        'credit',
        'debit',
        'debit',
        'error',
        'error',
        'error',
        'informational',
        'informational',
      ],
    );
  });
});

describe('parseBai2', () => {
  it('reads a 16 with funds types D and V, bank and customer references, the group date and currency', async () => {
    const { lines, statements, errors } = await collect(
      oneAccount('03,ACC-1,CAD,010,500,,,015,1000,,/', [
        '16,142,700,D,2,0,500,1,200,BR1,CR1,ACH credit',
        '16,451,200,V,261202,,BR2,,ACH debit',
      ]),
    );
    expect(errors).toEqual([]);
    expect(statements[0]).toMatchObject({ accountId: 'ACC-1', currency: 'CAD', lineCount: 2 });
    expect(
      lines.map(({ amountMinor, currency, bookedOn, valueOn, references, externalId, description }) => [
        amountMinor,
        currency,
        bookedOn,
        valueOn,
        references,
        externalId,
        description,
      ]),
    ).toEqual([
      [
        700n,
        'CAD',
        '2026-12-01',
        null,
        { bankReference: 'BR1', customerReference: 'CR1' },
        'bankref:BR1',
        'ACH credit',
      ],
      [-200n, 'CAD', '2026-12-01', '2026-12-02', { bankReference: 'BR2' }, 'bankref:BR2', 'ACH debit'],
    ]);
  });

  it('reads a 03 with a blank field after the last entry (",,,,/"), one whose "/" cuts an entry short', async () => {
    for (const account of ['03,ACC-1,USD,010,100,,,,/', '03,ACC-1,USD,010,100/']) {
      const { statements, errors } = await collect(oneAccount(account, []));
      expect(errors).toEqual([]);
      expect(statements[0].openingBalance).toEqual({ amountMinor: 100n, currency: 'USD', date: '2026-12-01' });
    }
    const { errors } = await collect(oneAccount('03,ACC-1,USD,010,100,,,,015,5,,/', []));
    expect(errors.map((error) => error.reason)).toEqual(['type code "" is not three digits']);
  });

  it('does not import an informational 9xx detail as a line, but counts it in the control total', async () => {
    const text = [...HEADER, '03,ACC-1,,010,100,,/', '16,920,50,,,,Memo/', '49,150,3/', '98,150,1,5/', '99,150,1,7/'];
    const { lines, statements, errors } = await collect(text.join('\n'));
    expect(errors).toEqual([]);
    expect(lines).toEqual([]);
    expect(statements[0].warnings).toBeUndefined();
  });

  it('warns, and does not refuse, when a stated record count is off by one', async () => {
    const text = [...HEADER, '03,ACC-1,,010,100,,/', '49,100,3/', '98,100,1,4/', '99,100,1,6/'];
    const { statements, errors } = await collect(text.join('\n'));
    expect(errors).toEqual([]);
    expect(statements[0].warnings).toEqual(['the account trailer (49) at line 4 counts 3 records, but there are 2']);
  });

  it('refuses an amount longer than 18 digits, an unknown currency and a version that is not 2', async () => {
    const { errors } = await collect(
      [
        '01,BANK,CUSTOMER,261201,0600,F1,,,3/',
        HEADER[1],
        '03,ACC-1,XYZ,010,1,,/',
        '49,,/',
        '03,ACC-2,,010,1,,/',
        `16,142,${'1'.repeat(19)},0,,,Too much`,
        '49,,/',
        '98,,,/',
        '99,,,/',
      ].join('\n'),
    );
    expect(errors.map(({ lineNumber, reason }) => [lineNumber, reason])).toEqual([
      [1, 'file header (01) gives version "3"; only BAI version 2 is read'],
      [3, 'currency "XYZ" is not a supported ISO 4217 code'],
      [6, 'amount "1111111111111111111" is not a BAI2 amount (only up to 18 digits of minor units)'],
    ]);
  });

  it("reports a bad field of a continued 03 or 16 at the 88's line", async () => {
    const bad03 = ['03,ACC-1,,010,100,,/', '88,015,1.00,,/', '49,,/'];
    const bad16 = ['03,ACC-2,,010,100,,/', '16,142,100,S,50,50/', '88,0x,BR,,text', '49,,/'];
    const { errors } = await collect([...HEADER, ...bad03, ...bad16, '98,,,/', '99,,,/'].join('\n'));
    expect(errors.map(({ lineNumber, reason }) => [lineNumber, reason])).toEqual([
      [4, 'amount of type code 015 "1.00" is not a BAI2 amount (an optional sign and up to 18 digits of minor units)'],
      [8, 'availability amount "0x" is not a BAI2 amount (an optional sign and up to 18 digits of minor units)'],
    ]);
  });

  it('refuses an 88 with nothing to continue, and a record with too many continuations', async () => {
    const continuations = Array.from({ length: BAI2_CONTINUATIONS_PER_RECORD_MAX + 1 }, () => '88,more');
    const text = [
      '88,orphan',
      ...HEADER,
      '03,ACC-1,,010,1,,/',
      '16,142,1,0,,,',
      ...continuations,
      '49,,/',
      '98,,,/',
      '99,,,/',
    ];
    const { errors } = await collect(text.join('\n'));
    expect(errors.map(({ lineNumber, reason }) => [lineNumber, reason])).toEqual([
      [1, 'continuation record (88) with no record before it to continue'],
      [
        BAI2_CONTINUATIONS_PER_RECORD_MAX + 6,
        `record has more than ${BAI2_CONTINUATIONS_PER_RECORD_MAX} continuation records`,
      ],
    ]);
  });

  it('refuses a file with no BAI2 record and an empty one, and reads two files one after the other', async () => {
    expect((await collect('')).errors).toEqual([
      { kind: 'error', lineNumber: 1, reason: 'the file has no BAI2 file header (01 record)' },
    ]);
    const one = oneAccount('03,ACC-1,,010,1,,/', ['16,142,1,0,REF,,']);
    const { statements, lines, errors } = await collect(`${one}\n${one.replace('ACC-1', 'ACC-2')}`);
    expect(errors).toEqual([]);
    expect(statements.map((statement) => [statement.statementIndex, statement.accountId])).toEqual([
      [0, 'ACC-1'],
      [1, 'ACC-2'],
    ]);
    expect(lines.map((line) => line.externalId)).toEqual(['bankref:REF', 'bankref:REF']);
  });

  it("warns about a group whose status is not an update (test only), on that group's first account", async () => {
    const text = [
      ...HEADER,
      '03,ACC-1,,010,1,,/',
      '49,,/',
      '98,,,/',
      '02,CUSTOMER,BANK,4,261201,2400,,2/',
      '03,ACC-2,,010,1,,/',
      '49,,/',
      '98,,,/',
      '99,,,/',
    ];
    const { statements, errors } = await collect(text.join('\n'));
    expect(errors).toEqual([]);
    expect(statements.map((statement) => [statement.accountId, statement.warnings])).toEqual([
      ['ACC-1', undefined],
      ['ACC-2', ['the group at line 6 has status 4 (test only)']],
    ]);
  });

  it('numbers a repeated bank reference within an account, bounded like the content hashes', async () => {
    const details = ['16,195,100,0,W1,,Wire', '16,469,5,0,W1,,Fee', '16,469,5,0,W1,,Fee'];
    const { lines } = await collect(oneAccount('03,ACC-1,,010,1,,/', details));
    expect(lines.map((line) => line.externalId)).toEqual(['bankref:W1', 'bankref:W1:2', 'bankref:W1:3']);
    expect(IDENTICAL_LINE_KEYS_PER_STATEMENT_MAX).toBeGreaterThan(details.length);
  });
});
