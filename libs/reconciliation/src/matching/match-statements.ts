import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { Finding } from '../domain/finding';
import { type MismatchRow, ambiguousFinding, duplicateFinding, mismatchFinding, missingInLedgerFinding, missingInStatementFinding } from './match-findings';
import {
  AMBIGUOUS_LINES,
  BULK_PLANS,
  DUPLICATE_LINES,
  MISSING_IN_STATEMENT,
  MATCH_BY_AMOUNT_DATE,
  MATCH_BY_REFERENCE,
  REFERENCE_MISMATCHES,
  SOURCES_OF_TENANT,
  UNMATCHED_LINES,
} from './matching.sql';

/** How far a booking date may be from the ledger's effective date for the amount + date rule. */
export const MATCH_WINDOW_DAYS = 3;
export const SOURCES_PER_RUN_MAX = 1_000;
/** An entry older than this that its source's statements should show, but do not, is missing there. */
export const MISSING_IN_STATEMENT_GRACE_DAYS = 2;
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
    await this.db.executor.query(BULK_PLANS);
    const sources = await this.db.executor.query<Source>(SOURCES_OF_TENANT, [tenantId, SOURCES_PER_RUN_MAX]);
    for (const source of sources) await this.matchSource(tenantId, runId, source, outcome);
    return outcome;
  }

  private async matchSource(tenantId: string, runId: string, source: Source, outcome: MatchingOutcome): Promise<void> {
    const scope = [tenantId, source.id, source.account_id, source.normal_balance];
    const sql = this.db.executor;
    const named = { name: source.name, accountCode: source.account_code };
    outcome.matched.reference += await this.count(MATCH_BY_REFERENCE, [...scope, runId]);
    const mismatches = await sql.query<MismatchRow>(REFERENCE_MISMATCHES, [...scope, MATCH_FINDINGS_MAX]);
    outcome.matched.amountDate += await this.count(MATCH_BY_AMOUNT_DATE, [...scope, runId, MATCH_WINDOW_DAYS]);
    const ambiguous = await sql.query<{ line_id: string; transaction_ids: string[] }>(AMBIGUOUS_LINES, [...scope, MATCH_WINDOW_DAYS, MATCH_FINDINGS_MAX]);
    const duplicates = await sql.query<{ line_id: string; twin_id: string; amount: string; currency: string }>(DUPLICATE_LINES, [tenantId, source.id, MATCH_FINDINGS_MAX]);
    const missingInStatement = await sql.query<{ transaction_id: string; leg: number; amount: string; currency: string; effective_on: string }>(
      MISSING_IN_STATEMENT,
      [...scope, MISSING_IN_STATEMENT_GRACE_DAYS, MATCH_FINDINGS_MAX],
    );
    const unmatched = await sql.query<{ line_id: string; amount: string; currency: string; booked_on: string; description: string; refs: Record<string, string> }>(
      UNMATCHED_LINES,
      [tenantId, source.id, MATCH_FINDINGS_MAX],
    );
    // A line explained by a more precise finding is not also "missing in the ledger".
    const explained = new Set([...mismatches, ...ambiguous, ...duplicates].map((row) => row.line_id));
    outcome.findings.push(
      ...mismatches.map((row) => mismatchFinding(named, row)),
      ...ambiguous.map((row) => ambiguousFinding(named, row)),
      ...duplicates.map((row) => duplicateFinding(named, row)),
      ...missingInStatement.map((row) => missingInStatementFinding(named, row)),
      ...unmatched.filter((row) => !explained.has(row.line_id)).map((row) => missingInLedgerFinding(named, row)),
    );
  }

  private async count(statement: string, params: unknown[]): Promise<number> {
    const rows = await this.db.executor.query<{ count: bigint }>(`WITH inserted AS (${statement} RETURNING 1) SELECT count(*)::int8 AS count FROM inserted`, params);
    return Number(rows[0]!.count);
  }
}
