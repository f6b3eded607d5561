import type { DiscrepancyKind, Finding } from './finding';

export interface OwnerRoute {
  priority: number;
  kind: DiscrepancyKind | null;
  source: string | null;
  accountPrefix: string | null;
  minAmountMinor: bigint | null;
  owner: string;
}

/** Who a ticket goes to when no rule matches and the tenant set no default. */
export const UNASSIGNED = 'unassigned';

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}

/** The first rule, by priority, whose every criterion holds; a rule without criteria matches all. */
export function ownerFor(
  finding: Pick<Finding, 'kind' | 'source' | 'accountCode' | 'amountMinor'>,
  routes: readonly OwnerRoute[],
): string {
  const ordered = [...routes].sort((left, right) => left.priority - right.priority);
  for (const route of ordered) {
    if (route.kind !== null && route.kind !== finding.kind) continue;
    if (route.source !== null && route.source !== finding.source) continue;
    if (route.accountPrefix !== null && !(finding.accountCode ?? '').startsWith(route.accountPrefix)) continue;
    if (
      route.minAmountMinor !== null &&
      (finding.amountMinor === null || abs(finding.amountMinor) < route.minAmountMinor)
    )
      continue;
    return route.owner;
  }
  return UNASSIGNED;
}
