import { canonicalJson, newId, sha256 } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import type { EventType } from '@ledger/outbox';
import { assertEffectiveAtInWindow } from '../domain/effective-at';
import { HOLD_DURATION_MAX_MS } from '../domain/limits';
import type { ReleasedLeg } from '../domain/posting-plan';
import { type DraftLeg, assertBalanced, assertDistinctAccounts } from '../domain/transaction-draft';
import type { PostTransactionRequest } from './post-transaction.schema';
import type { TransactionRow } from './posting.repository';

/** One transaction to write: a posting, a hold, a capture, a void/expiry record or a reversal. */
export interface NewItem extends TransactionRow {
  legs: readonly DraftLeg[];
  releases: readonly ReleasedLeg[];
  event: EventType;
}

/**
 * A posting or hold from a client request, with every check that needs no database: balanced per
 * currency, accounts distinct, dates in their windows. Throws the first problem found.
 */
export function itemFromRequest(request: PostTransactionRequest, actor: string, now: Date): NewItem {
  return sizedItemFromRequest(request, actor, now).item;
}

/** The same, with the size of the request's canonical JSON (what a posting group counts against its bound). */
export function sizedItemFromRequest(
  request: PostTransactionRequest,
  actor: string,
  now: Date,
): { item: NewItem; bytes: number } {
  const legs = request.entries.map((leg) => ({
    account: leg.account,
    direction: leg.direction,
    amountMinor: leg.amount,
    currency: leg.currency,
  }));
  assertBalanced(legs);
  assertDistinctAccounts(legs);
  if (request.effectiveAt !== undefined) assertEffectiveAtInWindow(request.effectiveAt, now);
  const expiresAt = request.pending?.expiresAt ?? null;
  if (
    expiresAt !== null &&
    (expiresAt.getTime() <= now.getTime() || expiresAt.getTime() > now.getTime() + HOLD_DURATION_MAX_MS)
  ) {
    throw new DomainError('VALIDATION_FAILED', 'pending.expiresAt must be in the future and at most 90 days away', {
      fields: [{ path: 'pending.expiresAt', message: 'out of range' }],
    });
  }
  const canonical = canonicalJson(request);
  const item: NewItem = {
    id: newId(now.getTime()),
    status: expiresAt === null ? 'posted' : 'pending',
    externalRef: request.externalRef ?? null,
    // What an external reference stands for: the same reference with other content is a conflict.
    contentHash: sha256(canonical),
    description: request.description ?? null,
    metadata: request.metadata,
    effectiveAt: request.effectiveAt ?? now,
    createdAt: now,
    expiresAt,
    holdId: null,
    reversesId: null,
    actor,
    legs,
    releases: [],
    event: expiresAt === null ? 'transaction.posted' : 'transaction.pending',
  };
  return { item, bytes: Buffer.byteLength(canonical) };
}
