import { describe, expect, it } from 'vitest';
import { evidenceLink, evidenceSide, evidenceText, statementLineIds, transactionIds } from './evidence';

const T1 = '0195a0b2-1111-7000-8000-000000000001';
const T2 = '0195a0b2-2222-7000-8000-000000000002';

describe('ticket evidence', () => {
  it('finds the statement lines of single and group tickets, twins included, once each', () => {
    expect(statementLineIds({ statementLineId: 'a', twinStatementLineId: 'b' })).toEqual(['a', 'b']);
    expect(statementLineIds({ statementLineIds: ['a', 'c'], statementLineId: 'a' })).toEqual(['a', 'c']);
    expect(statementLineIds({ check: 'journal' })).toEqual([]);
  });

  it('finds transactions named directly, as candidates, or as group members with a leg', () => {
    expect(transactionIds({ transactionId: T1 })).toEqual([T1]);
    expect(transactionIds({ candidateTransactionIds: [T1, T2] })).toEqual([T1, T2]);
    expect(transactionIds({ entries: [`${T1}:0`, `${T1}:1`, `${T2}:0`] })).toEqual([T1, T2]);
    expect(transactionIds({ entries: 3, transactionId: 'not-an-id' })).toEqual([]);
  });

  it('puts each evidence field on the statement side, the ledger side or with the check', () => {
    expect(['statementAmount', 'bookedOn', 'references', 'reference'].map(evidenceSide)).toEqual([
      'statement',
      'statement',
      'statement',
      'statement',
    ]);
    expect(
      ['ledgerAmount', 'transactionId', 'candidateTransactionIds', 'effectiveOn', 'leg'].map(evidenceSide),
    ).toEqual(['ledger', 'ledger', 'ledger', 'ledger', 'ledger']);
    expect(evidenceSide('check')).toBe('check');
    expect([evidenceText('x'), evidenceText(['a', 'b']), evidenceText({ ref: 'INV-1' })]).toEqual([
      'x',
      'a, b',
      '{"ref":"INV-1"}',
    ]);
  });

  it("links a payment order named by the evidence to the order's page, and nothing else", () => {
    expect(evidenceLink('paymentOrderId', T1)).toBe(`#/payments/${T1}`);
    expect(evidenceLink('paymentOrderId', '../api-keys')).toBeUndefined();
    expect(evidenceLink('paymentOrderId', [T1])).toBeUndefined();
    expect(evidenceLink('transactionId', T1)).toBeUndefined();
    expect(evidenceLink('toString', T1)).toBeUndefined();
  });
});
