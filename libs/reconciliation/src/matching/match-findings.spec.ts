import { describe, expect, it } from 'vitest';
import { duplicateFinding, mismatchFinding, missingInLedgerFinding, missingInStatementFinding } from './match-findings';

const source = { name: 'bank-eur', accountCode: '1000' };
const line = (amount: string, currency: string) => ({
  line_id: '00000000-0000-4000-8000-000000000001',
  amount,
  currency,
  booked_on: '2026-03-02',
  description: 'card fee',
  refs: {},
});

describe('ticket summaries', () => {
  it('say the amount in major units of its currency, as the amount column does', () => {
    expect(missingInLedgerFinding(source, line('-7950', 'EUR')).summary).toContain('bank-eur booked -79.50 EUR on');
    expect(missingInLedgerFinding(source, line('-7950', 'JPY')).summary).toContain('booked -7950 JPY on');
    expect(missingInLedgerFinding(source, line('-7950', 'BHD')).summary).toContain('booked -7.950 BHD on');
  });

  it('do so for every kind that names an amount', () => {
    const mismatch = mismatchFinding(source, {
      line_id: 'l',
      transaction_id: 't',
      field: 'endToEndId',
      reference: 'E2E-1',
      line_amount: '-7950',
      entry_amount: '-7900',
      line_currency: 'EUR',
      entry_currency: 'EUR',
    });
    expect(mismatch.summary).toBe('bank-eur line E2E-1 (endToEndId) is -79.50 EUR; the ledger has -79.00 EUR');
    const twice = duplicateFinding(source, { line_id: 'l', twin_id: 'm', amount: '1050', currency: 'KWD' });
    expect(twice.summary).toContain('the same 1.050 KWD movement twice');
    const missing = missingInStatementFinding(source, {
      transaction_id: 't',
      leg: 0,
      amount: '120000',
      currency: 'JPY',
      effective_on: '2026-03-02',
    });
    expect(missing.summary).toContain('the ledger has 120000 JPY on 1000');
  });
});
