import { GROUP_EVIDENCE_MEMBERS_MAX } from '../matching/match-findings';
import type { DiscrepancyKind } from './finding';

// Fixing a ticket by booking what the statement shows: which tickets can be fixed that way, which
// statement lines and ledger entries a booking settles, and the two legs it posts. Pure functions.

type Side = 'debit' | 'credit';

/** What a booking settles, read from the ticket's evidence; the amounts are read again from their owners. */
export interface AdjustmentScope {
  statementLineIds: string[];
  /** Entries already in the ledger for these lines (an amount mismatch's ledger side). */
  entries: { transactionId: string; leg?: number; signedAmountMinor?: bigint }[];
}

/** Why a ticket cannot be fixed by booking, in words a person reads. */
export type NotAdjustable = { reason: string };

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function texts(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

/** `"<transaction id>:<leg>"`, as a group ticket names its entries. */
function entryOf(member: string): { transactionId: string; leg: number } | undefined {
  const [transactionId, leg] = member.split(':');
  const number = Number(leg);
  return transactionId && Number.isInteger(number) && number >= 0 ? { transactionId, leg: number } : undefined;
}

function groupScope(evidence: Record<string, unknown>): AdjustmentScope | NotAdjustable {
  const lineIds = texts(evidence.statementLineIds) ?? [];
  const entries = (texts(evidence.entries) ?? []).map(entryOf);
  if (lineIds.length === 0 || entries.some((entry) => entry === undefined))
    return { reason: 'its evidence does not name the lines and entries of the group' };
  if (lineIds.length !== Number(evidence.statementLines) || entries.length !== Number(evidence.ledgerEntries))
    return { reason: `the group has more than ${GROUP_EVIDENCE_MEMBERS_MAX} lines or entries: match it by hand` };
  return { statementLineIds: lineIds, entries: entries as { transactionId: string; leg: number }[] };
}

/**
 * The lines and entries a booking settles: a line the ledger never heard of, or a line (or a payout
 * group) whose ledger side has another amount. Other kinds are not fixed by booking what the bank shows.
 */
export function adjustmentScope(ticket: {
  kind: DiscrepancyKind;
  evidence: Record<string, unknown>;
}): AdjustmentScope | NotAdjustable {
  const { evidence } = ticket;
  if (ticket.kind === 'missing_in_ledger') {
    const lineId = text(evidence.statementLineId);
    return lineId === undefined
      ? { reason: 'its evidence names no line' }
      : { statementLineIds: [lineId], entries: [] };
  }
  if (ticket.kind !== 'amount_mismatch')
    return { reason: `a ${ticket.kind} ticket is not fixed by booking: only missing_in_ledger and amount_mismatch` };
  if (evidence.statementLineIds !== undefined) return groupScope(evidence);
  const lineId = text(evidence.statementLineId);
  const transactionId = text(evidence.transactionId);
  const ledgerAmount = text(evidence.ledgerAmount);
  if (
    lineId === undefined ||
    transactionId === undefined ||
    ledgerAmount === undefined ||
    !/^-?\d+$/.test(ledgerAmount)
  )
    return { reason: 'its evidence does not name the line and the transaction' };
  return { statementLineIds: [lineId], entries: [{ transactionId, signedAmountMinor: BigInt(ledgerAmount) }] };
}

export function isNotAdjustable(scope: AdjustmentScope | NotAdjustable): scope is NotAdjustable {
  return 'reason' in scope;
}

/** An entry as a statement signs it: money in positive, on the account's normal side. */
export function signedEntry(normalBalance: Side, entry: { direction: Side; amountMinor: bigint }): bigint {
  return entry.direction === normalBalance ? entry.amountMinor : -entry.amountMinor;
}

/**
 * The two legs that book `differenceMinor` (statement minus ledger, signed as the statement signs it):
 * money in (a credit on the bank's statement) goes to the source account's normal side, so an asset
 * account grows; the counter account takes the other side.
 */
export function adjustmentLegs(
  differenceMinor: bigint,
  sourceNormalBalance: Side,
): { source: Side; counter: Side; amountMinor: bigint } {
  const opposite: Side = sourceNormalBalance === 'debit' ? 'credit' : 'debit';
  const source = differenceMinor > 0n ? sourceNormalBalance : opposite;
  return {
    source,
    counter: source === 'debit' ? 'credit' : 'debit',
    amountMinor: differenceMinor < 0n ? -differenceMinor : differenceMinor,
  };
}

/**
 * The references that name one movement, best first. A payout id or a mandate is shared by many lines
 * and never names a single booking.
 */
const REFERENCE_PREFERENCE = [
  'endToEndId',
  'transactionId',
  'gatewayId',
  'accountServicerRef',
  'bankReference',
  'customerReference',
  'instructionId',
  'sourceId',
] as const;

/** The line's reference that the booking carries as its externalRef, when it has one that fits. */
export function bookingReference(refs: Record<string, string>, lengthMax: number): string | undefined {
  for (const name of REFERENCE_PREFERENCE) {
    const value = refs[name]?.trim();
    if (value && value.length <= lengthMax && !/\p{Cc}/u.test(value)) return value;
  }
  return undefined;
}
