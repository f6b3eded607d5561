import { minorToDecimal } from '@ledger/money';
import type { ExportedTransaction } from './exported-transaction';

/**
 * A text that a spreadsheet would run as a formula: one starting with `=`, `+`, `-`, `@`, TAB or CR
 * (OWASP's list), or with the full-width `＝`, `＋`, `－`, `＠` that some spreadsheets fold to them.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A plain decimal number (`-7950`, `-79.50`): a spreadsheet reads it as the number it is, not a formula. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * One CSV field, the only way this project writes one. RFC 4180: a field with a comma, quote or line
 * break is quoted, quotes doubled. A text a spreadsheet would evaluate (see FORMULA_START) gets a
 * leading `'` and is quoted, so it opens as the text it is; a plain number, a negative amount
 * included, is left as it is, so amounts stay numbers.
 */
export function csvField(value: string | number | bigint | boolean | null): string {
  const text = value === null ? '' : String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) return `"'${text.replace(/"/g, '""')}"`;
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
