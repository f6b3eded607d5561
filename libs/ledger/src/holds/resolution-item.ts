import { DomainError } from '@ledger/errors';
import { newId, sha256 } from '@ledger/ids';
import type { EventType } from '@ledger/outbox';
import type { NamedTransaction } from '../transactions/named-transaction.repository';
import type { NewItem } from '../transactions/new-item';
import type { TransactionStatus } from '../transactions/transaction.view';

export type HoldAction = 'post' | 'void' | 'expire';

export interface ResolveHoldCommand {
  tenantId: string;
  holdId: string;
  action: HoldAction;
  /** Who resolves it: the caller's key, or `expiry` for the worker. */
  actor: string;
  /** post only: capture this much of a two-leg hold; the rest is released. Default: all of it. */
  amountMinor?: bigint;
  /** post only: the capture's own external reference (a payment order's, which its provider's report names). */
  externalRef?: string;
  now?: Date;
}

const OUTCOME: Record<HoldAction, { status: TransactionStatus; event: EventType }> = {
  post: { status: 'posted', event: 'hold.posted' },
  void: { status: 'voided', event: 'hold.voided' },
  expire: { status: 'expired', event: 'hold.expired' },
};

function capturedLegs(hold: NamedTransaction, amountMinor: bigint | undefined) {
  const legs = hold.entries.map((entry) => ({
    account: entry.accountId,
    direction: entry.direction,
    amountMinor: entry.amountMinor,
    currency: entry.currency,
  }));
  if (amountMinor === undefined) return legs;
  const held = legs[0]!.amountMinor;
  if (legs.length !== 2) {
    throw new DomainError('VALIDATION_FAILED', 'only a two-leg hold can be captured in part', {
      fields: [{ path: 'amount', message: 'this hold has more than two legs' }],
    });
  }
  if (amountMinor > held) {
    throw new DomainError('VALIDATION_FAILED', `cannot capture more than the ${held} held`, {
      fields: [{ path: 'amount', message: `at most ${held}` }],
    });
  }
  return legs.map((leg) => ({ ...leg, amountMinor }));
}

function notOpen(holdId: string, hold: NamedTransaction | undefined): DomainError {
  if (hold === undefined) return new DomainError('NOT_FOUND', `transaction ${holdId} not found`);
  if (hold.status !== 'pending')
    return new DomainError('NOT_A_HOLD', `transaction ${holdId} is ${hold.status}, not a hold`);
  return new DomainError('HOLD_ALREADY_RESOLVED', `hold ${holdId} is already posted, voided or expired`, { holdId });
}

/**
 * The record that posts, voids or expires a hold: a new immutable transaction that names it, made from
 * the hold as read under its lock (undefined: no such transaction). Throws what refuses it.
 */
export function resolutionItem(
  hold: NamedTransaction | undefined,
  command: Omit<ResolveHoldCommand, 'tenantId'>,
  now: Date,
): NewItem {
  const { holdId, action } = command;
  if (hold === undefined || !hold.open) throw notOpen(holdId, hold);
  const expiresAt = hold.expiresAt!;
  if (action === 'expire' && expiresAt > now)
    throw new DomainError('VALIDATION_FAILED', 'the hold has not expired yet');
  // Past its expiry a hold can only be released (voided, or expired by the worker), never captured.
  if (action === 'post' && expiresAt <= now) {
    throw new DomainError('HOLD_EXPIRED', `hold ${holdId} expired at ${expiresAt.toISOString()}`, {
      holdId,
      expiresAt: expiresAt.toISOString(),
    });
  }
  const { status, event } = OUTCOME[action];
  return {
    id: newId(now.getTime()),
    status,
    externalRef: action === 'post' ? (command.externalRef ?? null) : null,
    contentHash: sha256(`${action}:${holdId}:${command.amountMinor ?? 'all'}`),
    description: null,
    metadata: {},
    effectiveAt: now,
    createdAt: now,
    expiresAt: null,
    holdId,
    reversesId: null,
    actor: command.actor,
    legs: action === 'post' ? capturedLegs(hold, command.amountMinor) : [],
    releases: hold.entries,
    event,
  };
}
