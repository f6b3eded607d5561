export const DISCREPANCY_KINDS = [
  'missing_in_ledger',
  'missing_in_statement',
  'amount_mismatch',
  'duplicate',
  'currency_mismatch',
  'ambiguous_match',
  'invariant_violation',
  'stale_hold',
  'balance_continuity',
  'stuck_payment_order',
] as const;
export type DiscrepancyKind = (typeof DISCREPANCY_KINDS)[number];

export type Severity = 'critical' | 'high' | 'medium' | 'low';

/** Something a run found wrong. The fingerprint names its cause, stably across runs. */
export interface Finding {
  kind: DiscrepancyKind;
  fingerprint: string;
  summary: string;
  amountMinor: bigint | null;
  currency: string | null;
  accountCode: string | null;
  source: string | null;
  evidence: Record<string, unknown>;
}

/** How urgent each kind is, and how long its owner has (the ticket's due date). */
export const KIND_POLICY: Record<DiscrepancyKind, { severity: Severity; slaHours: number }> = {
  invariant_violation: { severity: 'critical', slaHours: 4 },
  balance_continuity: { severity: 'high', slaHours: 24 },
  stale_hold: { severity: 'high', slaHours: 24 },
  stuck_payment_order: { severity: 'high', slaHours: 24 },
  missing_in_ledger: { severity: 'high', slaHours: 48 },
  missing_in_statement: { severity: 'medium', slaHours: 72 },
  amount_mismatch: { severity: 'high', slaHours: 48 },
  currency_mismatch: { severity: 'high', slaHours: 48 },
  duplicate: { severity: 'medium', slaHours: 72 },
  ambiguous_match: { severity: 'medium', slaHours: 72 },
};

/**
 * An ignored ticket of a critical kind (today `invariant_violation`: the books or the journal are
 * broken) cannot be silenced: the next run that still finds its cause reopens it. Other kinds stay
 * ignored (a person decided the finding does not matter, e.g. a bank's known rounding).
 */
export function reopensWhenIgnored(kind: DiscrepancyKind): boolean {
  return KIND_POLICY[kind].severity === 'critical';
}

export function dueAt(kind: DiscrepancyKind, openedAt: Date): Date {
  return new Date(openedAt.getTime() + KIND_POLICY[kind].slaHours * 3600 * 1000);
}
