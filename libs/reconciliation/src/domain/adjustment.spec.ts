import { describe, expect, it } from 'vitest';
import { adjustmentLegs, adjustmentScope, bookingReference, isNotAdjustable, signedEntry } from './adjustment';

const LINE = '0190a8f0-0000-7000-8000-000000000001';
const OTHER_LINE = '0190a8f0-0000-7000-8000-000000000002';
const TRANSACTION = '0190a8f0-0000-7000-8000-0000000000aa';

describe('adjustmentScope', () => {
  it('books the one line of a missing_in_ledger ticket', () => {
    expect(adjustmentScope({ kind: 'missing_in_ledger', evidence: { statementLineId: LINE } })).toEqual({
      statementLineIds: [LINE],
      entries: [],
    });
  });

  it('settles an amount mismatch against the ledger amount it names', () => {
    const scope = adjustmentScope({
      kind: 'amount_mismatch',
      evidence: { statementLineId: LINE, transactionId: TRANSACTION, statementAmount: '-1200', ledgerAmount: '-1000' },
    });
    expect(scope).toEqual({
      statementLineIds: [LINE],
      entries: [{ transactionId: TRANSACTION, signedAmountMinor: -1000n }],
    });
  });

  it('settles a whole payout group, and refuses one whose evidence lists only part of it', () => {
    const evidence = {
      statementLineIds: [LINE, OTHER_LINE],
      entries: [`${TRANSACTION}:1`],
      statementLines: 2,
      ledgerEntries: 1,
    };
    expect(adjustmentScope({ kind: 'amount_mismatch', evidence })).toEqual({
      statementLineIds: [LINE, OTHER_LINE],
      entries: [{ transactionId: TRANSACTION, leg: 1 }],
    });
    const partial = adjustmentScope({ kind: 'amount_mismatch', evidence: { ...evidence, statementLines: 80 } });
    expect(isNotAdjustable(partial) && partial.reason).toMatch(/more than 50/);
  });

  it('refuses every other kind, and evidence that names nothing', () => {
    for (const kind of ['duplicate', 'currency_mismatch', 'missing_in_statement', 'ambiguous_match'] as const) {
      const scope = adjustmentScope({ kind, evidence: { statementLineId: LINE } });
      expect(isNotAdjustable(scope) && scope.reason).toMatch(kind);
    }
    expect(isNotAdjustable(adjustmentScope({ kind: 'missing_in_ledger', evidence: {} }))).toBe(true);
    const noAmount = { statementLineId: LINE, transactionId: TRANSACTION, ledgerAmount: '1.5' };
    expect(isNotAdjustable(adjustmentScope({ kind: 'amount_mismatch', evidence: noAmount }))).toBe(true);
  });
});

describe('adjustmentLegs', () => {
  it('puts money in on the normal side of the source account (a bank asset grows)', () => {
    expect(adjustmentLegs(2500n, 'debit')).toEqual({ source: 'debit', counter: 'credit', amountMinor: 2500n });
    expect(adjustmentLegs(-795n, 'debit')).toEqual({ source: 'credit', counter: 'debit', amountMinor: 795n });
    expect(adjustmentLegs(-795n, 'credit')).toEqual({ source: 'debit', counter: 'credit', amountMinor: 795n });
  });

  it('signs an entry as the statement does', () => {
    expect(signedEntry('debit', { direction: 'debit', amountMinor: 10n })).toBe(10n);
    expect(signedEntry('debit', { direction: 'credit', amountMinor: 10n })).toBe(-10n);
    expect(signedEntry('credit', { direction: 'credit', amountMinor: 10n })).toBe(10n);
  });
});

describe('bookingReference', () => {
  it('takes the reference that names one movement, never a payout id', () => {
    expect(bookingReference({ payoutId: 'po_1', customerReference: 'FEE-11' }, 255)).toBe('FEE-11');
    expect(bookingReference({ customerReference: 'C', endToEndId: 'E2E' }, 255)).toBe('E2E');
    expect(bookingReference({ payoutId: 'po_1' }, 255)).toBeUndefined();
  });

  it('skips a reference the ledger would refuse as an externalRef', () => {
    expect(bookingReference({ endToEndId: 'x'.repeat(300), customerReference: 'OK' }, 255)).toBe('OK');
    expect(bookingReference({ endToEndId: 'a\u0007b' }, 255)).toBeUndefined();
  });
});
