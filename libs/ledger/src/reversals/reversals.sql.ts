import { sql } from '@ledger/db';
import type { Side } from '../domain/balances';
import type { TransactionStatus } from '../transactions/transaction.view';

export interface OriginalRow {
  id: string;
  status: TransactionStatus;
  reverses_id: string | null;
  reversed_by_id: string | null;
  entries: { account: string; direction: Side; amount: string; currency: string }[] | null;
}

/**
 * The transaction to reverse, with its reversal if it has one. Two reversals of one transaction queue
 * on its advisory lock (LOCK_TRANSACTION); this read, a fresh statement after the lock, then sees the
 * first one's row.
 */
export const READ_ORIGINAL = sql<{ tenantId: string; id: string }, OriginalRow>(`
SELECT t.id, t.status, t.reverses_id,
       (SELECT r.id FROM transactions r WHERE r.tenant_id = t.tenant_id AND r.reverses_id = t.id) AS reversed_by_id,
       (SELECT json_agg(json_build_object('account', e.account_id, 'direction', e.direction,
                                          'amount', e.amount_minor::text, 'currency', e.currency) ORDER BY e.leg)
          FROM entries e WHERE e.tenant_id = t.tenant_id AND e.transaction_id = t.id) AS entries
  FROM transactions t WHERE t.tenant_id = :tenantId AND t.id = :id`);
