import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { type MatchingRule, basisPointsToPercent } from './matching-rule';
import { MatchingRuleRepository, type StoredRules } from './matching-rule.repository';

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

function view(stored: StoredRules): MatchingRulesView {
  return {
    builtIn: stored.builtIn,
    rules: stored.rules.map(toView),
    updatedBy: stored.updatedBy,
    updatedAt: stored.updatedAt?.toISOString() ?? null,
  };
}

/** Reads and replaces a tenant's ordered matching rules; the next run uses them. */
@Injectable()
export class MatchingRulesUseCases {
  constructor(
    private readonly db: Database,
    private readonly rules: MatchingRuleRepository,
  ) {}

  async get(tenantId: string): Promise<MatchingRulesView> {
    return view(await this.rules.load(tenantId));
  }

  /** Replaces the whole list at once; an empty list goes back to the built-in rules. */
  async replace(command: { tenantId: string; actor: string; rules: MatchingRule[] }): Promise<MatchingRulesView> {
    return this.db.transaction('read committed', async () => {
      await this.rules.replace(command.tenantId, command.actor, command.rules);
      return view(await this.rules.load(command.tenantId));
    });
  }
}
