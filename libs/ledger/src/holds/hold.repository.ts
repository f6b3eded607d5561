import { Injectable } from '@nestjs/common';
import { Database, type SqlExecutor } from '@ledger/db';
import type { Side } from '../domain/balances';
import type { TransactionStatus } from '../transactions/transaction.view';
import { LOCK_TRANSACTION } from '../transactions/posting.sql';
import { FIND_EXPIRED_HOLDS, FIND_OPEN_HOLD, FIND_STATUS } from './holds.sql';

export interface OpenHold {
  id: string;
  expiresAt: Date;
  entries: { accountId: string; direction: Side; amountMinor: bigint; currency: string }[];
}

@Injectable()
export class HoldRepository {
  constructor(private readonly db: Database) {}

  /** The hold, locked against other resolvers; undefined if it is not an open hold. */
  async lockOpen(tx: SqlExecutor, tenantId: string, holdId: string): Promise<OpenHold | undefined> {
    await tx.query(LOCK_TRANSACTION, [tenantId, holdId]);
    // A fresh statement after the lock: a resolution committed meanwhile has removed the row.
    const rows = await tx.query<{
      id: string;
      expires_at: Date;
      entries: { accountId: string; direction: Side; amount: string; currency: string }[];
    }>(FIND_OPEN_HOLD, [tenantId, holdId]);
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

  async statusOf(tx: SqlExecutor, tenantId: string, id: string): Promise<TransactionStatus | undefined> {
    const rows = await tx.query<{ status: TransactionStatus }>(FIND_STATUS, [tenantId, id]);
    return rows[0]?.status;
  }

  async findExpired(now: Date, limit: number): Promise<{ tenantId: string; holdId: string }[]> {
    const rows = await this.db.executor.query<{ tenant_id: string; hold_id: string }>(FIND_EXPIRED_HOLDS, [now, limit]);
    return rows.map((row) => ({ tenantId: row.tenant_id, holdId: row.hold_id }));
  }
}
