import { formatMoney } from '@ledger/money';
import type { SuggestionRow } from './suggestions.sql';

// Why a transaction is suggested for a ticket's statement lines: each reason a short code a program
// can act on, the value it is about (`detail`), and a sentence a person reads. Pure functions of the
// scored row.

export type CandidateReasonCode =
  | 'same_amount'
  | 'near_amount'
  | 'reference'
  | 'date_within_days'
  | 'counterparty_token';

export interface CandidateReason {
  code: CandidateReasonCode;
  detail: string | null;
  text: string;
}

export interface CandidateView {
  transactionId: string;
  externalRef: string | null;
  description: string | null;
  effectiveAt: string;
  /** The candidate's unmatched entries on the source's account (what a match would join). */
  entries: { leg: number; direction: 'debit' | 'credit'; amount: string; currency: string }[];
  /** The ticket's lines still unmatched, which the suggestion is for. */
  statementLines: string[];
  /** The entries' total signed like the lines (money in positive), minor units. */
  amount: string;
  currency: string;
  score: number;
  reasons: CandidateReason[];
}

function amountReason(row: SuggestionRow): CandidateReason {
  const difference = BigInt(row.amount) - BigInt(row.line_amount);
  if (difference === 0n) return { code: 'same_amount', detail: null, text: 'the same amount as the statement' };
  const by = formatMoney(difference < 0n ? -difference : difference, row.currency);
  const side = difference < 0n ? 'less' : 'more';
  return { code: 'near_amount', detail: difference.toString(), text: `${by} ${side} than the statement` };
}

function referenceReason(row: SuggestionRow): CandidateReason[] {
  if (row.reference === null) return [];
  const where = row.reference_in === 'externalRef' ? "is the transaction's externalRef" : 'is in its description';
  return [{ code: 'reference', detail: row.reference, text: `the statement's reference ${row.reference} ${where}` }];
}

function dateReason(row: SuggestionRow, windowDays: number): CandidateReason[] {
  if (row.days_apart > windowDays) return [];
  const text = row.days_apart === 0 ? 'effective on the booking date' : `effective ${row.days_apart} day(s) apart`;
  return [{ code: 'date_within_days', detail: String(row.days_apart), text }];
}

function tokenReason(row: SuggestionRow): CandidateReason[] {
  if (row.token === null) return [];
  return [{ code: 'counterparty_token', detail: row.token, text: `the counterparty's "${row.token}" is named` }];
}

export function candidateView(row: SuggestionRow, windowDays: number): CandidateView {
  return {
    transactionId: row.transaction_id,
    externalRef: row.external_ref,
    description: row.description,
    effectiveAt: row.effective_at.toISOString(),
    entries: row.entries,
    statementLines: row.line_ids,
    amount: row.amount,
    currency: row.currency,
    score: row.score,
    reasons: [amountReason(row), ...referenceReason(row), ...dateReason(row, windowDays), ...tokenReason(row)],
  };
}
