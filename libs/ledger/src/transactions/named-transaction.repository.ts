import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { Database, awaitedLater } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { isUuid } from '@ledger/ids';
import type { Side } from '../domain/balances';
import { READ_NAMED_TRANSACTIONS } from './named-transaction.sql';
import { LOCK_NAMES } from './posting.sql';
import type { TransactionStatus } from './transaction.view';

/** A transaction that a new one names: the hold a capture, void or expiry resolves, the one a reversal mirrors. */
export interface NamedTransaction {
  id: string;
  status: TransactionStatus;
  expiresAt: Date | null;
  /** A hold not yet posted, voided or expired. */
  open: boolean;
  reversesId: string | null;
  reversedById: string | null;
  entries: { accountId: string; direction: Side; amountMinor: bigint; currency: string }[];
}

/** A transaction id from a request's path, as stored (lower case); NOT_FOUND if it cannot be one. */
export function namedTransactionId(id: string): string {
  if (!isUuid(id)) throw new DomainError('NOT_FOUND', `transaction ${id} not found`);
  return id.toLowerCase();
}

@Injectable()
export class NamedTransactionRepository {
  constructor(private readonly db: Database) {}

  /**
   * The transactions, each locked against every other writer that names it, then read (the read sent
   * behind the locks, run once they are held). Absent from the map: no such transaction of the tenant.
   */
  async lockAndRead(tenantId: string, ids: readonly string[]): Promise<Map<string, NamedTransaction>> {
    assert.ok(this.db.inTransaction, 'the locks of named transactions are held by a transaction');
    const distinct = [...new Set(ids)];
    const locked = awaitedLater(this.db.query(LOCK_NAMES, { tenantId, kind: 'transaction', names: distinct }));
    const read = awaitedLater(this.db.query(READ_NAMED_TRANSACTIONS, { tenantId, ids: distinct }));
    await locked;
    const rows = await read;
    return new Map(
      rows.map((row) => [
        row.id,
        {
          id: row.id,
          status: row.status,
          expiresAt: row.expires_at,
          open: row.open,
          reversesId: row.reverses_id,
          reversedById: row.reversed_by_id,
          entries: (row.entries ?? []).map((entry) => ({
            accountId: entry.accountId,
            direction: entry.direction,
            amountMinor: BigInt(entry.amount),
            currency: entry.currency,
          })),
        },
      ]),
    );
  }
}
