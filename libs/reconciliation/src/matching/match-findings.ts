import { formatMoney } from '@ledger/money';
import type { Finding } from '../domain/finding';
import type {
  AmbiguousLineRow,
  DuplicateLineRow,
  GroupMismatchRow,
  MismatchRow,
  MissingInStatementRow,
  UnmatchedLineRow,
} from './unexplained.sql';

// What stays unexplained after matching, as findings a ticket can be opened for. Pure functions of
// the rows the matching queries return.

/** Amounts come back from SQL as text in minor units; a summary shows them in major units. */
const money = (amountMinor: string, currency: string) => formatMoney(BigInt(amountMinor), currency);

export interface SourceScope {
  name: string;
  accountCode: string;
}

export function mismatchFinding(source: SourceScope, row: MismatchRow): Finding {
  const currencyDiffers = row.line_currency !== row.entry_currency;
  return {
    accountCode: source.accountCode,
    source: source.name,
    kind: currencyDiffers ? 'currency_mismatch' : 'amount_mismatch',
    fingerprint: `${currencyDiffers ? 'currency' : 'amount'}_mismatch:${row.line_id}`,
    summary:
      `${source.name} line ${row.reference} (${row.field}) is ${money(row.line_amount, row.line_currency)}; ` +
      `the ledger has ${money(row.entry_amount, row.entry_currency)}`,
    amountMinor: currencyDiffers ? BigInt(row.line_amount) : BigInt(row.line_amount) - BigInt(row.entry_amount),
    currency: row.line_currency,
    evidence: {
      statementLineId: row.line_id,
      transactionId: row.transaction_id,
      reference: row.reference,
      field: row.field,
      statementAmount: row.line_amount,
      ledgerAmount: row.entry_amount,
    },
  };
}

export function ambiguousFinding(source: SourceScope, row: AmbiguousLineRow): Finding {
  return {
    accountCode: source.accountCode,
    source: source.name,
    kind: 'ambiguous_match',
    fingerprint: `ambiguous_match:${row.line_id}`,
    summary:
      `${source.name} line matches ${row.transaction_ids.length} ledger entries by amount and date; ` +
      'a person must choose',
    amountMinor: null,
    currency: null,
    evidence: { statementLineId: row.line_id, candidateTransactionIds: row.transaction_ids },
  };
}

export function duplicateFinding(source: SourceScope, row: DuplicateLineRow): Finding {
  const twice = `${source.name} reports the same ${money(row.amount, row.currency)} movement twice`;
  return {
    accountCode: source.accountCode,
    source: source.name,
    kind: 'duplicate',
    fingerprint: `duplicate:${row.line_id}`,
    summary: `${twice}; one copy matched the ledger`,
    amountMinor: BigInt(row.amount),
    currency: row.currency,
    evidence: { statementLineId: row.line_id, twinStatementLineId: row.twin_id },
  };
}

export function missingInStatementFinding(source: SourceScope, row: MissingInStatementRow): Finding {
  return {
    accountCode: source.accountCode,
    source: source.name,
    kind: 'missing_in_statement',
    fingerprint: `missing_in_statement:${row.transaction_id}:${row.leg}`,
    summary:
      `the ledger has ${money(row.amount, row.currency)} on ${source.accountCode} on ${row.effective_on}; ` +
      `${source.name}'s statements do not show it`,
    amountMinor: BigInt(row.amount),
    currency: row.currency,
    evidence: { transactionId: row.transaction_id, leg: row.leg, effectiveOn: row.effective_on },
  };
}

export function missingInLedgerFinding(source: SourceScope, row: UnmatchedLineRow): Finding {
  return {
    accountCode: source.accountCode,
    source: source.name,
    kind: 'missing_in_ledger',
    fingerprint: `missing_in_ledger:${row.line_id}`,
    summary:
      `${source.name} booked ${money(row.amount, row.currency)} on ${row.booked_on} ` +
      `(${row.description.slice(0, 80)}); nothing in the ledger matches`,
    amountMinor: BigInt(row.amount),
    currency: row.currency,
    evidence: { statementLineId: row.line_id, bookedOn: row.booked_on, references: row.refs },
  };
}

/** Members listed in a group ticket's evidence; the counts and sums always cover the whole group. */
export const GROUP_EVIDENCE_MEMBERS_MAX = 50;

/**
 * The lines sharing a payout id and the ledger entries of that payout do not add up to the same, or
 * some of those entries also belong to another payout, so that neither group is certain.
 */
export function groupMismatchFinding(source: SourceScope, field: string, row: GroupMismatchRow): Finding {
  const currencyDiffers =
    row.line_currencies !== '1' || row.entry_currencies !== '1' || row.line_currency !== row.entry_currency;
  const ambiguous = row.shared_entries !== '0';
  const kind = ambiguous ? 'ambiguous_match' : currencyDiffers ? 'currency_mismatch' : 'amount_mismatch';
  const sums =
    `${source.name}'s ${row.lines} lines with ${field} ${row.key} sum to ${money(row.line_sum, row.line_currency)}; ` +
    `the ledger's ${row.entries} entries for it to ${money(row.entry_sum, row.entry_currency)}`;
  return {
    accountCode: source.accountCode,
    source: source.name,
    kind,
    fingerprint: `${kind}:group:${source.name}:${field}:${row.key}`,
    summary: ambiguous
      ? `${sums}, and ${row.shared_entries} of those entries also belong to another group; a person must choose`
      : sums,
    amountMinor: ambiguous
      ? null
      : currencyDiffers
        ? BigInt(row.line_sum)
        : BigInt(row.line_sum) - BigInt(row.entry_sum),
    currency: row.line_currency,
    evidence: {
      field,
      reference: row.key,
      statementLines: Number(row.lines),
      ledgerEntries: Number(row.entries),
      statementAmount: row.line_sum,
      ledgerAmount: row.entry_sum,
      statementLineIds: row.line_ids.slice(0, GROUP_EVIDENCE_MEMBERS_MAX),
      entries: row.entry_ids.slice(0, GROUP_EVIDENCE_MEMBERS_MAX),
    },
  };
}
