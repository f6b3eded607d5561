import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { Finding } from '../domain/finding';
import {
  AMBIGUOUS_LINES,
  MATCH_BY_AMOUNT_DATE,
  MATCH_BY_REFERENCE,
  REFERENCE_MISMATCHES,
  SOURCES_OF_TENANT,
  UNMATCHED_LINES,
} from './matching.sql';

/** How far a booking date may be from the ledger's effective date for the amount + date rule. */
export const MATCH_WINDOW_DAYS = 3;
export const SOURCES_PER_RUN_MAX = 1_000;
/** Findings kept per source and kind per run. */
export const MATCH_FINDINGS_MAX = 1_000;

interface Source {
  id: string;
  name: string;
  account_id: string;
  account_code: string;
  normal_balance: 'debit' | 'credit';
}

export interface MatchingOutcome {
  matched: { reference: number; amountDate: number };
  findings: Finding[];
}

/**
 * Matches each source's statement lines to the posted entries of its ledger account, rule by rule
 * (exact reference, then amount + date with a unique candidate), recording each match with its rule
 * and evidence; then reports what stays unexplained: a reference whose amount or currency differs,
 * a line with several candidates, a line nothing in the ledger accounts for.
 */
@Injectable()
export class MatchStatements {
  constructor(private readonly db: Database) {}

  async run(tenantId: string, runId: string): Promise<MatchingOutcome> {
    const outcome: MatchingOutcome = { matched: { reference: 0, amountDate: 0 }, findings: [] };
    const sources = await this.db.executor.query<Source>(SOURCES_OF_TENANT, [tenantId, SOURCES_PER_RUN_MAX]);
    for (const source of sources) await this.matchSource(tenantId, runId, source, outcome);
    return outcome;
  }

  private async matchSource(tenantId: string, runId: string, source: Source, outcome: MatchingOutcome): Promise<void> {
    const scope = [tenantId, source.id, source.account_id, source.normal_balance];
    const sql = this.db.executor;
    outcome.matched.reference += await this.count(MATCH_BY_REFERENCE, [...scope, runId]);
    const mismatches = await sql.query<{ line_id: string; transaction_id: string; field: string; reference: string; line_amount: string; entry_amount: string; line_currency: string; entry_currency: string }>(
      REFERENCE_MISMATCHES,
      [...scope, MATCH_FINDINGS_MAX],
    );
    outcome.matched.amountDate += await this.count(MATCH_BY_AMOUNT_DATE, [...scope, runId, MATCH_WINDOW_DAYS]);
    const ambiguous = await sql.query<{ line_id: string; transaction_ids: string[] }>(AMBIGUOUS_LINES, [...scope, MATCH_WINDOW_DAYS, MATCH_FINDINGS_MAX]);
    const explained = new Set([...mismatches.map((row) => row.line_id), ...ambiguous.map((row) => row.line_id)]);
    const unmatched = await sql.query<{ line_id: string; amount: string; currency: string; booked_on: string; description: string; refs: Record<string, string> }>(
      UNMATCHED_LINES,
      [tenantId, source.id, MATCH_FINDINGS_MAX],
    );
    const common = { accountCode: source.account_code, source: source.name };
    for (const row of mismatches) {
      const currencyDiffers = row.line_currency !== row.entry_currency;
      outcome.findings.push({
        ...common,
        kind: currencyDiffers ? 'currency_mismatch' : 'amount_mismatch',
        fingerprint: `${currencyDiffers ? 'currency' : 'amount'}_mismatch:${row.line_id}`,
        summary: `${source.name} line ${row.reference} (${row.field}) is ${row.line_amount} ${row.line_currency}; the ledger has ${row.entry_amount} ${row.entry_currency}`,
        amountMinor: currencyDiffers ? BigInt(row.line_amount) : BigInt(row.line_amount) - BigInt(row.entry_amount),
        currency: row.line_currency,
        evidence: { statementLineId: row.line_id, transactionId: row.transaction_id, reference: row.reference, field: row.field, statementAmount: row.line_amount, ledgerAmount: row.entry_amount },
      });
    }
    for (const row of ambiguous) {
      outcome.findings.push({
        ...common,
        kind: 'ambiguous_match',
        fingerprint: `ambiguous_match:${row.line_id}`,
        summary: `${source.name} line matches ${row.transaction_ids.length} ledger entries by amount and date; a person must choose`,
        amountMinor: null,
        currency: null,
        evidence: { statementLineId: row.line_id, candidateTransactionIds: row.transaction_ids },
      });
    }
    for (const row of unmatched.filter((line) => !explained.has(line.line_id))) {
      outcome.findings.push({
        ...common,
        kind: 'missing_in_ledger',
        fingerprint: `missing_in_ledger:${row.line_id}`,
        summary: `${source.name} booked ${row.amount} ${row.currency} on ${row.booked_on} (${row.description.slice(0, 80)}); nothing in the ledger matches`,
        amountMinor: BigInt(row.amount),
        currency: row.currency,
        evidence: { statementLineId: row.line_id, bookedOn: row.booked_on, references: row.refs },
      });
    }
  }

  private async count(statement: string, params: unknown[]): Promise<number> {
    const rows = await this.db.executor.query<{ count: bigint }>(`WITH inserted AS (${statement} RETURNING 1) SELECT count(*)::int8 AS count FROM inserted`, params);
    return Number(rows[0]!.count);
  }
}
