import { minorToDecimal } from '@ledger/money';
import type { ExportedTransaction } from './exported-transaction';

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
export function csvField(value: string | number | bigint | boolean | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly (string | number | bigint | boolean | null)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

export const JOURNAL_CSV_HEADER = csvLine([
  'transaction_id',
  'journal_stripe',
  'journal_seq',
  'journal_hash',
  'status',
  'effective_at',
  'hold_id',
  'reverses_id',
  'external_ref',
  'description',
  'leg',
  'account',
  'direction',
  'pending',
  'amount',
  'currency',
  'amount_minor',
]);

/** One row per entry, holds' pending entries included (flagged); amounts exact, also in minor units. */
export function journalCsvRows(transaction: ExportedTransaction): string {
  return transaction.entries
    .map((entry) =>
      csvLine([
        transaction.id,
        transaction.stripe,
        transaction.seq,
        transaction.hash,
        transaction.status,
        transaction.effectiveAt.toISOString(),
        transaction.holdId,
        transaction.reversesId,
        transaction.externalRef,
        transaction.description,
        entry.leg,
        entry.account,
        entry.direction,
        entry.pending,
        minorToDecimal(entry.amountMinor, entry.currency),
        entry.currency,
        entry.amountMinor,
      ]),
    )
    .join('');
}
