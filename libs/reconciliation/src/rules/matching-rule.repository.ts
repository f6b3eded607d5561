import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { DEFAULT_MATCHING_RULES, type MatchingRule } from './matching-rule';

/** A tenant's rules as stored, with who changed them last (the whole list is written at once). */
export interface StoredRules {
  /** The tenant's rules in order, or the built-in ones when it has none. */
  rules: MatchingRule[];
  builtIn: boolean;
  updatedBy: string | null;
  updatedAt: Date | null;
}

/** The tenants' ordered matching rules: plain rows, read and written with Prisma Client. */
@Injectable()
export class MatchingRuleRepository {
  constructor(private readonly db: Database) {}

  async load(tenantId: string): Promise<StoredRules> {
    const rows = await this.db.prisma.matchingRule.findMany({ where: { tenantId }, orderBy: { position: 'asc' } });
    if (rows.length === 0)
      return { rules: [...DEFAULT_MATCHING_RULES], builtIn: true, updatedBy: null, updatedAt: null };
    return {
      rules: rows.map((row) => ({
        type: row.type as MatchingRule['type'],
        source: row.source,
        toleranceMinor: row.toleranceMinor,
        toleranceBps: row.toleranceBps,
        windowDays: row.windowDays,
        lineReference: row.lineReference,
        metadataKey: row.metadataKey,
      })),
      builtIn: false,
      updatedBy: rows[0]!.updatedBy,
      updatedAt: rows[0]!.updatedAt,
    };
  }

  /** Replaces the tenant's whole list (two statements: call it in a transaction). */
  async replace(tenantId: string, actor: string, rules: readonly MatchingRule[]): Promise<void> {
    await this.db.prisma.matchingRule.deleteMany({ where: { tenantId } });
    if (rules.length === 0) return;
    await this.db.prisma.matchingRule.createMany({
      data: rules.map((rule, index) => ({
        tenantId,
        position: index + 1,
        type: rule.type,
        source: rule.source,
        toleranceMinor: rule.toleranceMinor,
        toleranceBps: rule.toleranceBps,
        windowDays: rule.windowDays,
        lineReference: rule.lineReference,
        metadataKey: rule.metadataKey,
        updatedBy: actor,
      })),
    });
  }
}
