import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { type StatementSource, StatementSourceReader } from '@ledger/imports';
import type { Finding } from '../domain/finding';
import { type MatchingRule, rulesForSource } from '../rules/matching-rule';
import { MatchingRuleRepository } from '../rules/matching-rule.repository';
import type { MatchScope } from './candidates.sql';
import {
  ambiguousFinding,
  duplicateFinding,
  groupMismatchFinding,
  mismatchFinding,
  missingInLedgerFinding,
  missingInStatementFinding,
} from './match-findings';
import { MatchingRepository, probes } from './matching.repository';

export const SOURCES_PER_RUN_MAX = 1_000;
/** An entry older than this that its source's statements should show, but do not, is missing there. */
export const MISSING_IN_STATEMENT_GRACE_DAYS = 2;
/** Findings kept per source and kind per run. */
export const MATCH_FINDINGS_MAX = 1_000;

/** Statement lines matched per rule type (a group counts all of its lines). */
export interface MatchedCounts {
  reference: number;
  group: number;
  amountDate: number;
  reversal: number;
}

/** How far matching has come: reported between its steps. */
export interface MatchingProgress {
  sourcesDone: number;
  sourcesTotal: number;
  linesMatched: number;
}

export interface MatchingOutcome {
  matched: MatchedCounts;
  findings: Finding[];
}

/**
 * Matches each source's statement lines to the posted entries of its ledger account, through the
 * tenant's rules in order (exact reference, payout groups, amount + date, reversals by default),
 * recording each match with its rule and evidence; then reports what stays unexplained: a reference or
 * a group whose amount or currency differs, a line with several candidates, a duplicated line, an entry
 * the statements do not show, a line nothing in the ledger accounts for.
 */
@Injectable()
export class MatchStatements {
  constructor(
    private readonly db: Database,
    private readonly matching: MatchingRepository,
    private readonly rules: MatchingRuleRepository,
    private readonly sources: StatementSourceReader,
  ) {}

  /**
   * Each rule of each source is one statement in a transaction of its own, committed before the next,
   * so that no transaction of a run lasts longer than its largest statement; `afterStep` runs between
   * and is told how far matching has come.
   */
  async run(
    tenantId: string,
    runId: string,
    afterStep: (progress: MatchingProgress) => Promise<void> = async () => {},
  ): Promise<MatchingOutcome> {
    const outcome: MatchingOutcome = { matched: { reference: 0, group: 0, amountDate: 0, reversal: 0 }, findings: [] };
    const { rules } = await this.rules.load(tenantId);
    const sources = await this.sources.list(tenantId, SOURCES_PER_RUN_MAX);
    const progress: MatchingProgress = { sourcesDone: 0, sourcesTotal: sources.length, linesMatched: 0 };
    await afterStep(progress);
    for (const source of sources) {
      const scope: MatchScope = {
        tenantId,
        sourceId: source.id,
        accountId: source.account.id,
        normalBalance: source.account.normalBalance,
      };
      const sourceRules = rulesForSource(rules, source.name);
      // Every rule consumes lines: once none is left, the later rules and the line-side findings have
      // nothing to look at (and each would scan the whole source to find that out). Lines imported, or
      // matches undone by a person, while the run goes are the next run's.
      let openLines = await this.step(false, () => this.matching.countUnmatchedLines(scope));
      for (const rule of sourceRules) {
        if (openLines === 0) break;
        const matched = await this.step(probes(rule), () => this.matching.matchRule(rule, scope, runId));
        outcome.matched[rule.type === 'amount_date' ? 'amountDate' : rule.type] += matched;
        openLines -= matched;
        progress.linesMatched += matched;
        await afterStep({ ...progress });
      }
      outcome.findings.push(
        ...(await this.step(false, () => this.unexplained(scope, source, sourceRules, openLines > 0))),
      );
      progress.sourcesDone++;
      await afterStep({ ...progress });
    }
    return outcome;
  }

  /** One step of the run: a transaction of its own, with the run's timeout and plans. */
  private step<T>(probing: boolean, work: () => Promise<T>): Promise<T> {
    return this.db.transaction('read committed', async () => {
      await this.matching.beginStep(probing);
      return work();
    });
  }

  private async unexplained(
    scope: MatchScope,
    source: StatementSource,
    rules: MatchingRule[],
    linesLeft: boolean,
  ): Promise<Finding[]> {
    const named = { name: source.name, accountCode: source.account.code };
    const missingInStatement = await this.matching.missingInStatement(
      scope,
      MISSING_IN_STATEMENT_GRACE_DAYS,
      MATCH_FINDINGS_MAX,
    );
    if (!linesLeft) return missingInStatement.map((row) => missingInStatementFinding(named, row));
    const mismatches = await this.matching.referenceMismatches(scope, MATCH_FINDINGS_MAX);
    const groups: Finding[] = [];
    const lineInGroup = new Set<string>();
    const entryInGroup = new Set<string>();
    for (const rule of rules.filter((candidate) => candidate.type === 'group')) {
      for (const row of await this.matching.groupMismatches(rule, scope, MATCH_FINDINGS_MAX)) {
        groups.push(groupMismatchFinding(named, rule.lineReference!, row));
        for (const id of row.line_ids) lineInGroup.add(id);
        for (const id of row.entry_ids) entryInGroup.add(id);
      }
    }
    const amountDate = rules.filter((candidate) => candidate.type === 'amount_date').at(-1);
    const ambiguous =
      amountDate === undefined ? [] : await this.matching.ambiguousLines(amountDate, scope, MATCH_FINDINGS_MAX);
    const duplicates = await this.matching.duplicateLines(scope, MATCH_FINDINGS_MAX);
    const unmatched = await this.matching.unmatchedLines(scope, MATCH_FINDINGS_MAX);
    // A line or entry explained by a more precise finding is not also "missing" on the other side.
    const explained = new Set(
      [...mismatches, ...ambiguous, ...duplicates].map((row) => row.line_id).concat([...lineInGroup]),
    );
    // A line of a group that does not add up is that group's ticket, not one ticket per line.
    const ownMismatches = mismatches.filter((row) => !lineInGroup.has(row.line_id));
    // The transaction a mismatched or ambiguous line names is that ticket's other side, not missing.
    const namedTransactions = new Set([
      ...ownMismatches.map((row) => row.transaction_id),
      ...ambiguous.flatMap((row) => row.transaction_ids),
    ]);
    return [
      ...ownMismatches.map((row) => mismatchFinding(named, row)),
      ...groups,
      ...ambiguous.map((row) => ambiguousFinding(named, row)),
      ...duplicates.map((row) => duplicateFinding(named, row)),
      ...missingInStatement
        .filter((row) => !entryInGroup.has(`${row.transaction_id}:${row.leg}`))
        .filter((row) => !namedTransactions.has(row.transaction_id))
        .map((row) => missingInStatementFinding(named, row)),
      ...unmatched.filter((row) => !explained.has(row.line_id)).map((row) => missingInLedgerFinding(named, row)),
    ];
  }
}
