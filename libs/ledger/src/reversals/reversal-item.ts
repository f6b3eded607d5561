import { DomainError } from '@ledger/errors';
import { newId, sha256 } from '@ledger/ids';
import { DESCRIPTION_LENGTH_MAX } from '../domain/limits';
import type { NamedTransaction } from '../transactions/named-transaction.repository';
import type { NewItem } from '../transactions/new-item';

export interface ReverseTransactionCommand {
  tenantId: string;
  id: string;
  /** Who reverses it (recorded on the reversal). */
  actor: string;
  description?: string;
  /** The reversal's own external reference (a payment order's return, which its provider's report names). */
  externalRef?: string;
}

function assertReversible(id: string, original: NamedTransaction | undefined): asserts original is NamedTransaction {
  if (original === undefined) throw new DomainError('NOT_FOUND', `transaction ${id} not found`);
  if (original.reversedById !== null) {
    throw new DomainError('ALREADY_REVERSED', `transaction ${id} is already reversed`, {
      reversedById: original.reversedById,
    });
  }
  if (original.reversesId !== null) {
    throw new DomainError('NOT_REVERSIBLE', 'a reversal cannot itself be reversed: post a new transaction instead', {
      reversesId: original.reversesId,
    });
  }
  if (original.status !== 'posted') {
    const hint = original.status === 'pending' ? ': void the hold instead' : '';
    throw new DomainError('NOT_REVERSIBLE', `a ${original.status} transaction cannot be reversed${hint}`);
  }
}

/**
 * The mirror image of a posted transaction, made from it as read under its lock (undefined: no such
 * transaction). Throws what refuses it; like any posting it must then respect every account's limit.
 */
export function reversalItem(
  original: NamedTransaction | undefined,
  command: Omit<ReverseTransactionCommand, 'tenantId'>,
  now: Date,
): NewItem {
  const { id } = command;
  assertReversible(id, original);
  return {
    id: newId(now.getTime()),
    status: 'posted',
    externalRef: command.externalRef ?? null,
    contentHash: sha256(`reverse:${id}`),
    description: command.description ?? `Reversal of ${id}`.slice(0, DESCRIPTION_LENGTH_MAX),
    metadata: {},
    effectiveAt: now,
    createdAt: now,
    expiresAt: null,
    holdId: null,
    reversesId: id,
    actor: command.actor,
    legs: original.entries.map((entry) => ({
      account: entry.accountId,
      direction: entry.direction === 'debit' ? 'credit' : 'debit',
      amountMinor: entry.amountMinor,
      currency: entry.currency,
    })),
    releases: [],
    event: 'transaction.reversed',
  };
}
