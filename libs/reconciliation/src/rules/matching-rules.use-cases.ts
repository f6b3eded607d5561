import { Injectable } from '@nestjs/common';
import { Database, type SqlExecutor } from '@ledger/db';
import { DEFAULT_MATCHING_RULES, type MatchingRule, basisPointsToPercent } from './matching-rule';
import { DELETE_RULES, INSERT_RULES, LIST_RULES } from './matching-rules.sql';

interface RuleRow {
  position: number;
  type: MatchingRule['type'];
  source: string | null;
  tolerance_minor: bigint;
  tolerance_bps: number;
  window_days: number;
  line_reference: string | null;
  metadata_key: string | null;
  updated_by: string;
  updated_at: Date;
}

export interface MatchingRuleView {
  position: number;
  type: MatchingRule['type'];
  source: string | null;
  toleranceAmount: string;
  tolerancePercent: string;
  windowDays: number;
  lineReference: string | null;
  metadataKey: string | null;
}

export interface MatchingRulesView {
  /** True while the tenant has no rules of its own and the built-in ones apply. */
  builtIn: boolean;
  rules: MatchingRuleView[];
  updatedBy: string | null;
  updatedAt: string | null;
}

const toRule = (row: RuleRow): MatchingRule => ({
  type: row.type,
  source: row.source,
  toleranceMinor: BigInt(row.tolerance_minor),
  toleranceBps: row.tolerance_bps,
  windowDays: row.window_days,
  lineReference: row.line_reference,
  metadataKey: row.metadata_key,
});

const toView = (rule: MatchingRule, index: number): MatchingRuleView => ({
  position: index + 1,
  type: rule.type,
  source: rule.source,
  toleranceAmount: rule.toleranceMinor.toString(),
  tolerancePercent: basisPointsToPercent(rule.toleranceBps),
  windowDays: rule.windowDays,
  lineReference: rule.lineReference,
  metadataKey: rule.metadataKey,
});

/** The tenant's matching rules in order, or the built-in ones when it has none. */
export async function loadMatchingRules(
  sql: SqlExecutor,
  tenantId: string,
): Promise<{ rules: MatchingRule[]; rows: RuleRow[] }> {
  const rows = await sql.query<RuleRow>(LIST_RULES, [tenantId]);
  return { rules: rows.length === 0 ? [...DEFAULT_MATCHING_RULES] : rows.map(toRule), rows };
}

/** Reads and replaces a tenant's ordered matching rules; the next run uses them. */
@Injectable()
export class MatchingRulesUseCases {
  constructor(private readonly db: Database) {}

  async get(tenantId: string): Promise<MatchingRulesView> {
    return this.view(await loadMatchingRules(this.db.executor, tenantId));
  }

  /** Replaces the whole list at once; an empty list goes back to the built-in rules. */
  async replace(command: { tenantId: string; actor: string; rules: MatchingRule[] }): Promise<MatchingRulesView> {
    return this.db.transaction('read committed', async (tx) => {
      await tx.query(DELETE_RULES, [command.tenantId]);
      const rules = command.rules;
      if (rules.length > 0) {
        await tx.query(INSERT_RULES, [
          command.tenantId,
          command.actor,
          rules.map((_, index) => index + 1),
          rules.map((rule) => rule.type),
          rules.map((rule) => rule.source),
          rules.map((rule) => rule.toleranceMinor.toString()),
          rules.map((rule) => rule.toleranceBps),
          rules.map((rule) => rule.windowDays),
          rules.map((rule) => rule.lineReference),
          rules.map((rule) => rule.metadataKey),
        ]);
      }
      return this.view(await loadMatchingRules(tx, command.tenantId));
    });
  }

  private view({ rules, rows }: { rules: MatchingRule[]; rows: RuleRow[] }): MatchingRulesView {
    return {
      builtIn: rows.length === 0,
      rules: rules.map(toView),
      updatedBy: rows[0]?.updated_by ?? null,
      updatedAt: rows[0]?.updated_at.toISOString() ?? null,
    };
  }
}
