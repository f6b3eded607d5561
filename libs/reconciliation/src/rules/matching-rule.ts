import { DomainError } from '@ledger/errors';

/**
 * One step of matching, tried in order for each source. Amounts are accepted when they differ by at
 * most max(toleranceMinor, |amount| * toleranceBps / 10000); zero tolerance means equal amounts.
 */
export interface MatchingRule {
  type: 'reference' | 'group' | 'amount_date' | 'reversal';
  /** The source (by name) the rule applies to; null for every source. */
  source: string | null;
  toleranceMinor: bigint;
  /** Percentage tolerance in basis points (1% = 100). */
  toleranceBps: number;
  /** amount_date: how far the booking date may be from the effective date. */
  windowDays: number;
  /** group: the statement line reference whose value forms a group (e.g. payoutId). */
  lineReference: string | null;
  /** group: the transaction metadata key that names the group on the ledger's side. */
  metadataKey: string | null;
}

export const MATCHING_RULES_MAX = 50;
export const MATCH_WINDOW_DAYS_MAX = 31;

const rule = (fields: Partial<MatchingRule> & Pick<MatchingRule, 'type'>): MatchingRule => ({
  source: null,
  toleranceMinor: 0n,
  toleranceBps: 0,
  windowDays: 0,
  lineReference: null,
  metadataKey: null,
  ...fields,
});

/**
 * What a tenant without rules of its own gets: exact reference, payout groups, amount and date, and
 * last the lines that cancel each other out (only what the ledger does not explain).
 */
export const DEFAULT_MATCHING_RULES: readonly MatchingRule[] = [
  rule({ type: 'reference' }),
  rule({ type: 'group', lineReference: 'payoutId', metadataKey: 'payoutId' }),
  rule({ type: 'amount_date', windowDays: 3 }),
  rule({ type: 'reversal' }),
];

export function matchingRule(fields: Partial<MatchingRule> & Pick<MatchingRule, 'type'>): MatchingRule {
  const built = rule(fields);
  if (built.type === 'group' && (built.lineReference === null || built.metadataKey === null)) {
    throw new DomainError(
      'VALIDATION_FAILED',
      'a group rule names the line reference and the metadata key that form its groups',
      {
        fields: [{ path: 'lineReference', message: 'required for a group rule' }],
      },
    );
  }
  if (built.type !== 'group' && (built.lineReference !== null || built.metadataKey !== null)) {
    throw new DomainError('VALIDATION_FAILED', 'only a group rule has a line reference and a metadata key', {
      fields: [{ path: 'lineReference', message: 'only for a group rule' }],
    });
  }
  return built;
}

/** The rules that apply to a source, in order. */
export function rulesForSource(rules: readonly MatchingRule[], sourceName: string): MatchingRule[] {
  return rules.filter((candidate) => candidate.source === null || candidate.source === sourceName);
}

/** "0.5" (percent) as basis points, exactly; more than two decimals cannot be expressed and is refused. */
export function percentToBasisPoints(percent: string): number {
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(percent);
  if (match === null)
    throw new DomainError(
      'VALIDATION_FAILED',
      `tolerance percent ${percent} is not a percentage with at most two decimals`,
      { fields: [{ path: 'tolerancePercent', message: 'invalid' }] },
    );
  const basisPoints = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (basisPoints > 10_000)
    throw new DomainError('VALIDATION_FAILED', `tolerance percent ${percent} is over 100`, {
      fields: [{ path: 'tolerancePercent', message: 'at most 100' }],
    });
  return basisPoints;
}

export function basisPointsToPercent(basisPoints: number): string {
  const fraction = basisPoints % 100;
  return fraction === 0
    ? String(basisPoints / 100)
    : `${Math.floor(basisPoints / 100)}.${String(fraction).padStart(2, '0').replace(/0$/, '')}`;
}
