import { describe, expect, it } from 'vitest';
import { candidateView } from './candidate-reasons';
import type { SuggestionRow } from './suggestions.sql';

const row: SuggestionRow = {
  transaction_id: '01a23263-1cf6-7866-aaaa-6d7a1150c417',
  external_ref: 'INV-42',
  description: 'Acme invoice',
  effective_at: new Date('2026-11-30T10:00:00.000Z'),
  entries: [{ leg: 0, direction: 'debit', amount: '12000', currency: 'USD' }],
  line_ids: ['01a23263-1cf6-7866-aaaa-6d7a1150c418'],
  currency: 'USD',
  amount: '12000',
  line_amount: '12000',
  days_apart: 0,
  reference: 'INV-42',
  reference_in: 'externalRef',
  token: 'acme',
  score: 100,
};

describe('the reasons of a suggestion', () => {
  it('names every kind of evidence the row has, with its detail and a sentence', () => {
    expect(candidateView(row, 7).reasons).toEqual([
      { code: 'same_amount', detail: null, text: 'the same amount as the statement' },
      {
        code: 'reference',
        detail: 'INV-42',
        text: "the statement's reference INV-42 is the transaction's externalRef",
      },
      { code: 'date_within_days', detail: '0', text: 'effective on the booking date' },
      { code: 'counterparty_token', detail: 'acme', text: 'the counterparty\'s "acme" is named' },
    ]);
  });

  it('gives a near amount in major units, and leaves out a date outside the window and what is absent', () => {
    const near = { ...row, amount: '-105', line_amount: '-100', days_apart: 9, reference: null, token: null };
    expect(candidateView({ ...near, reference_in: null, currency: 'BHD' }, 7).reasons).toEqual([
      { code: 'near_amount', detail: '-5', text: '0.005 BHD less than the statement' },
    ]);
    expect(candidateView({ ...row, amount: '12050', reference_in: 'description' }, 7).reasons.slice(0, 2)).toEqual([
      { code: 'near_amount', detail: '50', text: '0.50 USD more than the statement' },
      { code: 'reference', detail: 'INV-42', text: "the statement's reference INV-42 is in its description" },
    ]);
  });
});
