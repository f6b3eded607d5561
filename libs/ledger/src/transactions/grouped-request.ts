import assert from 'node:assert/strict';
import type { DomainError } from '@ledger/errors';
import type { NamedTransaction } from './named-transaction.repository';
import type { NewItem } from './new-item';
import type { ItemResult } from './planned-items';
import type { TransactionRepository } from './transaction.repository';
import type { TransactionView } from './transaction.view';

// What a request written in a group commit is, as the use cases that submit it see it (PostingGroups).

/**
 * A posting request's Idempotency-Key, used in the transaction that writes it: a group's (the shape
 * of the idempotency lib's KeyInTransaction; `A` is its outcome, the request's answer, and `Body`
 * what a success stores).
 */
export interface GroupedKey<A, Body = TransactionView> {
  /** Two requests whose keys have the same name are never in one group, nor in two groups in flight. */
  readonly name: string;
  /** The same object for every key of a group. */
  readonly steps: GroupedKeySteps<A, Body>;
}

export interface GroupedKeySteps<A, Body = TransactionView> {
  /** Per key: undefined to post it, the answer stored before (a replay), or the error that refuses it. */
  claimAll(keys: readonly GroupedKey<A, Body>[]): Promise<(A | DomainError | undefined)[]>;
  /** Each request's outcome stored under its key: written (the transactions) or refused (nothing written). */
  storeAll(
    results: readonly ({ key: GroupedKey<A, Body>; body: Body } | { key: GroupedKey<A, Body>; error: DomainError })[],
  ): Promise<A[]>;
}

/** An item's result once written: created, an existing transaction (same externalRef and content), or refused. */
export type WrittenItem =
  | { status: 'created' | 'exists'; transaction: TransactionView }
  | { status: 'error'; error: DomainError };

/** The results with each `exists` one's transaction read: once the write is done. */
export async function withExisting(
  transactions: TransactionRepository,
  tenantId: string,
  results: readonly ItemResult[],
): Promise<WrittenItem[]> {
  const written: WrittenItem[] = [];
  for (const result of results) {
    if (result.status !== 'exists') {
      written.push(result);
      continue;
    }
    const transaction = await transactions.findById(tenantId, result.transactionId);
    assert.ok(transaction !== undefined, 'an externalRef names a transaction of the tenant');
    written.push({ status: 'exists', transaction });
  }
  return written;
}

/**
 * A capture, void or reversal: its one item is made in the group's transaction, from the transaction it
 * names as locked and read there (NamedTransactionRepository).
 */
export interface ItemFromNamed {
  /** The transaction it names. Two requests naming one transaction never share a group, nor two groups in flight. */
  id: string;
  /** Its item, from that transaction (undefined: there is none); throws the DomainError that refuses the request. */
  make(named: NamedTransaction | undefined): NewItem;
}

/** A request to write in a group: its items, and what its key stores once they are written. */
export interface GroupedRequest<A, Body> {
  /** None when its one item is made from a transaction it names (`named`). */
  items: readonly NewItem[];
  named?: ItemFromNamed;
  /** Its JSON, counted against the lane's byte bound. */
  bytes: number;
  key: GroupedKey<A, Body>;
  /** What the key stores, from the items' results in their order: a body, or the error refusing it all. */
  outcome(results: readonly WrittenItem[]): Body | DomainError;
}

export interface GroupedAnswer<A> {
  answer: A;
  /** Every item named a transaction with the same content that already existed. */
  existing: boolean;
}
