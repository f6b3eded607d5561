import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { MatchingRule } from '../rules/matching-rule';
import type { MatchScope, RuleValues } from './candidates.sql';
import {
  BULK_PLANS,
  type Exactness,
  MATCH_BY_AMOUNT_DATE,
  MATCH_BY_REFERENCE,
  MATCH_GROUPS,
  MATCH_REVERSALS_COUNTED,
  type MatchStatement,
  PROBING_PLANS,
  REFRESH_STATISTICS,
  RUN_STATEMENT_TIMEOUT,
} from './matching.sql';
import {
  AMBIGUOUS_LINES,
  type AmbiguousLineRow,
  COUNT_UNMATCHED_LINES,
  DUPLICATE_LINES,
  type DuplicateLineRow,
  GROUP_MISMATCHES,
  type GroupMismatchRow,
  MISSING_IN_STATEMENT,
  type MismatchRow,
  type MissingInStatementRow,
  REFERENCE_MISMATCHES,
  UNMATCHED_LINES,
  type UnmatchedLineRow,
} from './unexplained.sql';
import { SUGGEST_TRANSACTIONS, type SuggestionParams, type SuggestionRow } from './suggestions.sql';

export const exactness = (rule: MatchingRule): Exactness =>
  rule.toleranceMinor === 0n && rule.toleranceBps === 0 ? 'exact' : 'tolerant';

/** Whether the rule's statement probes an index per row (amount bands, group keys) rather than hashing whole sets. */
export const probes = (rule: MatchingRule) =>
  rule.type === 'group' || (rule.type === 'amount_date' && exactness(rule) === 'tolerant');

function ruleValues(rule: MatchingRule): RuleValues {
  return {
    toleranceMinor: rule.toleranceMinor.toString(),
    toleranceBps: rule.toleranceBps,
    windowDays: rule.windowDays,
    lineReference: rule.lineReference,
    metadataKey: rule.metadataKey,
  };
}

/** The statement of a rule of this type and shape. */
export function ruleStatement(rule: MatchingRule): MatchStatement {
  switch (rule.type) {
    case 'reference':
      return MATCH_BY_REFERENCE[exactness(rule)][rule.windowDays > 0 ? 'window' : 'anyDay'];
    case 'group':
      return MATCH_GROUPS[exactness(rule)];
    case 'amount_date':
      return MATCH_BY_AMOUNT_DATE[exactness(rule)];
    case 'reversal':
      return MATCH_REVERSALS_COUNTED;
  }
}

/**
 * The set-based statements of matching: each rule's insert of the matches it is sure of, and the reads
 * of what stays unexplained. All run in the current (a run step's) transaction.
 */
@Injectable()
export class MatchingRepository {
  constructor(private readonly db: Database) {}

  /** Fresh planner statistics for the tables matching joins (autocommit, or the enclosing transaction). */
  async refreshStatistics(): Promise<void> {
    await this.db.query(REFRESH_STATISTICS);
  }

  /** A step's transaction: a run's statement timeout, and bulk plans unless the step probes by design. */
  async beginStep(probing: boolean): Promise<void> {
    await this.db.query(RUN_STATEMENT_TIMEOUT);
    await this.db.query(probing ? PROBING_PLANS : BULK_PLANS);
  }

  /** Statement lines the rule matched. */
  async matchRule(rule: MatchingRule, scope: MatchScope, runId: string): Promise<number> {
    const rows = await this.db.query(ruleStatement(rule), { ...scope, ...ruleValues(rule), runId });
    return Number(rows[0]!.count);
  }

  async countUnmatchedLines(scope: MatchScope): Promise<number> {
    return Number((await this.db.query(COUNT_UNMATCHED_LINES, scope))[0]!.count);
  }

  referenceMismatches(scope: MatchScope, limit: number): Promise<MismatchRow[]> {
    return this.db.query(REFERENCE_MISMATCHES, { ...scope, limit });
  }

  groupMismatches(rule: MatchingRule, scope: MatchScope, limit: number): Promise<GroupMismatchRow[]> {
    return this.withPlans(rule, () =>
      this.db.query(GROUP_MISMATCHES[exactness(rule)], { ...scope, ...ruleValues(rule), limit }),
    );
  }

  ambiguousLines(rule: MatchingRule, scope: MatchScope, limit: number): Promise<AmbiguousLineRow[]> {
    return this.withPlans(rule, () =>
      this.db.query(AMBIGUOUS_LINES[exactness(rule)], { ...scope, ...ruleValues(rule), limit }),
    );
  }

  duplicateLines(scope: MatchScope, limit: number): Promise<DuplicateLineRow[]> {
    return this.db.query(DUPLICATE_LINES, { ...scope, limit });
  }

  unmatchedLines(scope: MatchScope, limit: number): Promise<UnmatchedLineRow[]> {
    return this.db.query(UNMATCHED_LINES, { ...scope, limit });
  }

  missingInStatement(scope: MatchScope, graceDays: number, limit: number): Promise<MissingInStatementRow[]> {
    return this.db.query(MISSING_IN_STATEMENT, { ...scope, graceDays, limit });
  }

  /** The ledger transactions most likely to explain these statement lines, best first (a ticket's suggestions). */
  suggestTransactions(params: SuggestionParams): Promise<SuggestionRow[]> {
    return this.db.query(SUGGEST_TRANSACTIONS, params);
  }

  /** Inside a step's transaction: a read that probes indexes per row with nested loops allowed, bulk plans after. */
  private async withPlans<T>(rule: MatchingRule, work: () => Promise<T>): Promise<T> {
    if (!probes(rule)) return work();
    await this.db.query(PROBING_PLANS);
    try {
      return await work();
    } finally {
      await this.db.query(BULK_PLANS);
    }
  }
}
