import path from 'node:path';
import { expect } from 'vitest';
import { balanceCheck, collectStatement } from '@ledger/imports';
import { fileInput } from '../../test/statement-files';
import {
  describeWithStatementSamples,
  itWithStatementSamples,
  STATEMENT_SAMPLES_DIR,
} from '../../test/statement-samples';

// The ministryofjustice/bai2 library's test files, read as they are. The figures below were read off the
// files by hand: NatWest's sample reports one GBP account whose 16s have no references and whose texts are
// in 88 records; the other has two accounts with nothing but a blank account control total.

const sample = (name: string) => path.join(STATEMENT_SAMPLES_DIR, 'bai2', name);
const read = (name: string, chunkBytes?: number) =>
  collectStatement('bai2', fileInput(sample(name), chunkBytes), { linesMax: 100, charset: 'windows-1252' });

describeWithStatementSamples('BAI2 samples', () => {
  itWithStatementSamples('nwb_example.bai2: one GBP account, five lines, totals and balances that agree', async () => {
    for (const chunkBytes of [1, 97]) {
      const { statements, lines, errors, charset } = await read('nwb_example.bai2', chunkBytes);
      expect(errors).toEqual([]);
      expect(charset).toBe('utf-8'); // ASCII
      expect(statements).toHaveLength(1);
      const [statement] = statements;
      expect(statement).toMatchObject({
        format: 'bai2',
        lineNumber: 3,
        accountId: '88888888 600004',
        statementId: '2215',
        currency: 'GBP',
        openingBalance: { amountMinor: 36521n, currency: 'GBP', date: '2009-12-16' },
        closingBalance: { amountMinor: 33845n, currency: 'GBP', date: '2009-12-16' },
        lineCount: 5,
      });
      // 49, 98 and 99 all give 143764 and the right record counts: no warning.
      expect(statement.warnings).toBeUndefined();
      expect(lines.map((line) => [line.lineNumber, line.typeCode, line.amountMinor])).toEqual([
        [5, '699', -971n],
        [7, '699', -100n],
        [9, '699', -123n],
        [11, '699', -1571n],
        [13, '399', 89n],
      ]);
      // The 03's 88 gives total debits 400 = 2765 over 4 items and total credits 100 = 89 over 1.
      expect(lines.filter((line) => line.amountMinor < 0n).reduce((sum, line) => sum - line.amountMinor, 0n)).toBe(
        2765n,
      );
      expect(balanceCheck(statement, lines).ok).toBe(true);
      for (const line of lines) {
        expect(line).toMatchObject({ bookedOn: '2009-12-16', valueOn: null, currency: 'GBP', references: {} });
        expect(line.externalId).toMatch(/^sha256:[0-9a-f]{32}:1$/);
      }
      expect(lines[0].description).toBe('LVP XBANKGO24007664SJ LVP INT 2 USAXBANKGO24007664SJ LVP INT 2 USARELAY TFR');
      // Two 88s, cut at 80 characters inside "CLIENT".
      expect(lines[4].description).toBe(
        'TFR XBANKGO24007680SJ CAT JPY 2 GBPXBANKGO24007680BGC INTERNATIONAL-5373 CLIENT SECCY AC TFR',
      );
    }
  });

  itWithStatementSamples(
    'account_trailer_amount_blank_example.bai2: two accounts with blank control totals',
    async () => {
      const { statements, lines, errors } = await read('account_trailer_amount_blank_example.bai2');
      expect(errors).toEqual([]);
      expect(lines).toEqual([]);
      expect(
        statements.map(({ accountId, currency, openingBalance, closingBalance, lineCount, warnings, statementId }) => ({
          accountId,
          currency,
          openingBalance,
          closingBalance,
          lineCount,
          warnings,
          statementId,
        })),
      ).toEqual(
        ['12345', '54321'].map((accountId) => ({
          accountId,
          currency: 'USD', // neither the 02 nor the 03 names one
          openingBalance: null,
          closingBalance: null,
          lineCount: 0,
          warnings: undefined, // "49,,2/": blank is not checked; 98 and 99 give 0 with the right counts
          statementId: '010101010101',
        })),
      );
    },
  );
});
