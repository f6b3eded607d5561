import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { Finding } from '../domain/finding';
import { type MatchingRule, rulesForSource } from '../rules/matching-rule';
import { loadMatchingRules } from '../rules/matching-rules.use-cases';
import { RUN_STATEMENT_TIMEOUT } from '../runs.sql';
import {
  type GroupMismatchRow,
  type MismatchRow,
  ambiguousFinding,
  duplicateFinding,
  groupMismatchFinding,
  mismatchFinding,
  missingInLedgerFinding,
  missingInStatementFinding,
} from './match-findings';
import {
  BULK_PLANS,
  COUNT_UNMATCHED_LINES,
  DUPLICATE_LINES,
  MATCH_REVERSALS,
  MISSING_IN_STATEMENT,
  PROBING_PLANS,
  REFERENCE_MISMATCHES,
  SOURCES_OF_TENANT,
  UNMATCHED_LINES,
  ambiguousLines,
  bindRuleParameters,
  groupMismatches,
  matchByAmountDate,
  matchByReference,
  matchGroups,
} from './matching.sql';

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

/** Statement lines matched per rule type (a group counts all of its lines). */
export interface MatchedCounts {
  reference: number;
  group: number;
  amountDate: number;
  reversal: number;
}

export interface MatchingOutcome {
  matched: MatchedCounts;
  findings: Finding[];
}

/** A statement of the rule, with its own parameters first and the rule's values after them. */
function withRule(rule: MatchingRule, text: string, params: unknown[]): [string, unknown[]] {
  const [bound, values] = bindRuleParameters(text, rule, params.length + 1);
  return [bound, [...params, ...values]];
}

/** Each rule type's matching statement and its parameters. */
const RULE_STATEMENTS: Record<
  MatchingRule['type'],
  (rule: MatchingRule, scope: unknown[], runId: string) => [string, unknown[]]
> = {
  reference: (rule, scope, runId) => withRule(rule, matchByReference(rule), [...scope, runId]),
  group: (rule, scope, runId) => withRule(rule, matchGroups(rule), [...scope, runId]),
  amount_date: (rule, scope, runId) => withRule(rule, matchByAmountDate(rule), [...scope, runId]),
  reversal: (_rule, [tenantId, sourceId], runId) => [MATCH_REVERSALS, [tenantId, sourceId, runId]],
};

/** Whether the rule's statement probes an index per row (amount bands, group keys) rather than hashing whole sets. */
const probes = (rule: MatchingRule) =>
  rule.type === 'group' || (rule.type === 'amount_date' && (rule.toleranceMinor > 0n || rule.toleranceBps > 0));

/**
 * Matches each source's statement lines to the posted entries of its ledger account, through the
 * tenant's rules in order (exact reference, payout groups, amount + date, reversals by default), recording each
 * match with its rule and evidence; then reports what stays unexplained: a reference or a group whose
 * amount or currency differs, a line with several candidates, a duplicated line, an entry the
 * statements do not show, a line nothing in the ledger accounts for.
 */
@Injectable()
export class MatchStatements {
  constructor(private readonly db: Database) {}

  /**
   * Each rule of each source is one statement in a transaction of its own, committed before the next,
   * so that no transaction of a run lasts longer than its largest statement; `afterStep` runs between.
   */
  async run(
    tenantId: string,
    runId: string,
    afterStep: () => Promise<void> = async () => {},
  ): Promise<MatchingOutcome> {
    const outcome: MatchingOutcome = { matched: { reference: 0, group: 0, amountDate: 0, reversal: 0 }, findings: [] };
    const { rules } = await loadMatchingRules(this.db.executor, tenantId);
    const sources = await this.db.executor.query<Source>(SOURCES_OF_TENANT, [tenantId, SOURCES_PER_RUN_MAX]);
    for (const source of sources) {
      const scope = [tenantId, source.id, source.account_id, source.normal_balance];
      const sourceRules = rulesForSource(rules, source.name);
      // Every rule consumes lines: once none is left, the later rules and the line-side findings have
      // nothing to look at (and each would scan the whole source to find that out). Lines imported, or
      // matches undone by a person, while the run goes are the next run's.
      let openLines = await this.inTransaction(BULK_PLANS, () =>
        this.count(COUNT_UNMATCHED_LINES, [tenantId, source.id]),
      );
      for (const rule of sourceRules) {
        if (openLines === 0) break;
        const [statement, params] = RULE_STATEMENTS[rule.type](rule, scope, runId);
        const matched = await this.inTransaction(probes(rule) ? PROBING_PLANS : BULK_PLANS, () =>
          this.countLines(statement, params),
        );
        outcome.matched[rule.type === 'amount_date' ? 'amountDate' : rule.type] += matched;
        openLines -= matched;
        await afterStep();
      }
      outcome.findings.push(
        ...(await this.inTransaction(BULK_PLANS, () => this.unexplained(scope, source, sourceRules, openLines > 0))),
      );
      await afterStep();
    }
    return outcome;
  }

  private inTransaction<T>(plans: string, work: () => Promise<T>): Promise<T> {
    return this.db.transaction('read committed', async (tx) => {
      await tx.query(RUN_STATEMENT_TIMEOUT);
      await tx.query(plans);
      return work();
    });
  }

  private async unexplained(
    scope: unknown[],
    source: Source,
    rules: MatchingRule[],
    linesLeft: boolean,
  ): Promise<Finding[]> {
    const sql = this.db.executor;
    const [tenantId, sourceId] = scope;
    const named = { name: source.name, accountCode: source.account_code };
    const missingInStatement = await sql.query<{
      transaction_id: string;
      leg: number;
      amount: string;
      currency: string;
      effective_on: string;
    }>(MISSING_IN_STATEMENT, [...scope, MISSING_IN_STATEMENT_GRACE_DAYS, MATCH_FINDINGS_MAX]);
    if (!linesLeft) return missingInStatement.map((row) => missingInStatementFinding(named, row));
    const mismatches = await sql.query<MismatchRow>(REFERENCE_MISMATCHES, [...scope, MATCH_FINDINGS_MAX]);
    const groups: Finding[] = [];
    const lineInGroup = new Set<string>();
    const entryInGroup = new Set<string>();
    for (const rule of rules.filter((candidate) => candidate.type === 'group')) {
      const rows = await this.withPlans(rule, () =>
        sql.query<GroupMismatchRow>(...withRule(rule, groupMismatches(rule), [...scope, MATCH_FINDINGS_MAX])),
      );
      for (const row of rows) {
        groups.push(groupMismatchFinding(named, rule.lineReference!, row));
        for (const id of row.line_ids) lineInGroup.add(id);
        for (const id of row.entry_ids) entryInGroup.add(id);
      }
    }
    const amountDate = rules.filter((candidate) => candidate.type === 'amount_date').at(-1);
    const ambiguous =
      amountDate === undefined
        ? []
        : await this.withPlans(amountDate, () =>
            sql.query<{ line_id: string; transaction_ids: string[] }>(
              ...withRule(amountDate, ambiguousLines(amountDate), [...scope, MATCH_FINDINGS_MAX]),
            ),
          );
    const duplicates = await sql.query<{ line_id: string; twin_id: string; amount: string; currency: string }>(
      DUPLICATE_LINES,
      [tenantId, sourceId, MATCH_FINDINGS_MAX],
    );
    const unmatched = await sql.query<{
      line_id: string;
      amount: string;
      currency: string;
      booked_on: string;
      description: string;
      refs: Record<string, string>;
    }>(UNMATCHED_LINES, [tenantId, sourceId, MATCH_FINDINGS_MAX]);
    // A line or entry explained by a more precise finding is not also "missing" on the other side.
    const explained = new Set(
      [...mismatches, ...ambiguous, ...duplicates].map((row) => row.line_id).concat([...lineInGroup]),
    );
    return [
      // A line of a group that does not add up is that group's ticket, not one ticket per line.
      ...mismatches.filter((row) => !lineInGroup.has(row.line_id)).map((row) => mismatchFinding(named, row)),
      ...groups,
      ...ambiguous.map((row) => ambiguousFinding(named, row)),
      ...duplicates.map((row) => duplicateFinding(named, row)),
      ...missingInStatement
        .filter((row) => !entryInGroup.has(`${row.transaction_id}:${row.leg}`))
        .map((row) => missingInStatementFinding(named, row)),
      ...unmatched.filter((row) => !explained.has(row.line_id)).map((row) => missingInLedgerFinding(named, row)),
    ];
  }

  /** Inside a step's transaction: a query that probes indexes per row with nested loops allowed, and bulk plans again after. */
  private async withPlans<T>(rule: MatchingRule, work: () => Promise<T>): Promise<T> {
    if (!probes(rule)) return work();
    await this.db.executor.query(PROBING_PLANS);
    try {
      return await work();
    } finally {
      await this.db.executor.query(BULK_PLANS);
    }
  }

  /** Statement lines the insert matched (a group's rows without a line are not counted). */
  private countLines(statement: string, params: unknown[]): Promise<number> {
    return this.count(
      `WITH inserted AS (${statement} RETURNING statement_line_id) SELECT count(statement_line_id)::int8 AS count FROM inserted`,
      params,
    );
  }

  private async count(statement: string, params: unknown[]): Promise<number> {
    const rows = await this.db.executor.query<{ count: bigint }>(statement, params);
    return Number(rows[0]!.count);
  }
}
