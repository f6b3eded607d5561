import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { Side } from '../domain/balances';
import type { TransactionStatus } from '../transactions/transaction.view';
import { LOCK_TRANSACTION } from '../transactions/posting.sql';
import { FIND_OPEN_HOLD } from './holds.sql';

export interface OpenHold {
  id: string;
  expiresAt: Date;
  entries: { accountId: string; direction: Side; amountMinor: bigint; currency: string }[];
}

@Injectable()
export class HoldRepository {
  constructor(private readonly db: Database) {}

  /** The hold, locked against other resolvers; undefined if it is not an open hold. */
  async lockOpen(tenantId: string, holdId: string): Promise<OpenHold | undefined> {
    assert.ok(this.db.inTransaction, "a hold's lock is held by a transaction");
    await this.db.query(LOCK_TRANSACTION, { tenantId, transactionId: holdId });
    // A fresh statement after the lock: a resolution committed meanwhile has removed the row.
    const rows = await this.db.query(FIND_OPEN_HOLD, { tenantId, holdId });
    const row = rows[0];
    if (row === undefined) return undefined;
    return {
      id: row.id,
      expiresAt: row.expires_at,
      entries: row.entries.map((entry) => ({
        accountId: entry.accountId,
        direction: entry.direction,
        amountMinor: BigInt(entry.amount),
        currency: entry.currency,
      })),
    };
  }

  async statusOf(tenantId: string, id: string): Promise<TransactionStatus | undefined> {
    const row = await this.db.prisma.transaction.findUnique({
      where: { tenantId_id: { tenantId, id } },
      select: { status: true },
    });
    return row?.status as TransactionStatus | undefined;
  }

  async findExpired(now: Date, limit: number): Promise<{ tenantId: string; holdId: string }[]> {
    // Oldest expired holds first, across tenants; bounded per run.
    return this.db.prisma.openHold.findMany({
      where: { expiresAt: { lte: now } },
      orderBy: { expiresAt: 'asc' },
      take: limit,
      select: { tenantId: true, holdId: true },
    });
  }
}
