import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { Side } from '../domain/balances';
import { LOCK_TRANSACTION } from '../transactions/posting.sql';
import type { TransactionStatus } from '../transactions/transaction.view';
import { READ_ORIGINAL } from './reversals.sql';

/** A transaction as its reversal needs it. */
export interface ReversalOriginal {
  id: string;
  status: TransactionStatus;
  reversesId: string | null;
  reversedById: string | null;
  entries: { accountId: string; direction: Side; amountMinor: bigint; currency: string }[];
}

@Injectable()
export class ReversalRepository {
  constructor(private readonly db: Database) {}

  /** The transaction, locked against other reversals of it; undefined if it does not exist. */
  async lockOriginal(tenantId: string, id: string): Promise<ReversalOriginal | undefined> {
    assert.ok(this.db.inTransaction, "a transaction's reversal lock is held by a transaction");
    await this.db.query(LOCK_TRANSACTION, { tenantId, transactionId: id });
    const [row] = await this.db.query(READ_ORIGINAL, { tenantId, id });
    if (row === undefined) return undefined;
    return {
      id: row.id,
      status: row.status,
      reversesId: row.reverses_id,
      reversedById: row.reversed_by_id,
      entries: (row.entries ?? []).map((entry) => ({
        accountId: entry.account,
        direction: entry.direction,
        amountMinor: BigInt(entry.amount),
        currency: entry.currency,
      })),
    };
  }
}
