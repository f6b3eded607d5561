import { sql } from '@ledger/db';
import type { Side } from '../domain/balances';
import type { TransactionStatus } from './transaction.view';

// A capture, void, expiry or reversal names a transaction it was not given: the hold it resolves, the
// transaction it mirrors. Those who name a transaction take its advisory lock first (LOCK_NAMES), so
// racing resolutions (or reversals) of one transaction queue, and each finds what the one before it wrote.

export interface NamedTransactionRow {
  id: string;
  status: TransactionStatus;
  expires_at: Date | null;
  open: boolean;
  reverses_id: string | null;
  reversed_by_id: string | null;
  entries: { accountId: string; direction: Side; amount: string; currency: string }[] | null;
}

/**
 * The named transactions with their entries, whether each is an open hold, and its reversal if it has
 * one: a fresh statement after their locks, so it sees what a resolution or reversal that held them
 * committed. One probe of each unique key per transaction.
 */
export const READ_NAMED_TRANSACTIONS = sql<{ tenantId: string; ids: string[] }, NamedTransactionRow>(`
SELECT t.id, t.status, t.expires_at, t.reverses_id,
       EXISTS (SELECT 1 FROM open_holds o WHERE o.tenant_id = t.tenant_id AND o.hold_id = t.id) AS open,
       (SELECT r.id FROM transactions r WHERE r.tenant_id = t.tenant_id AND r.reverses_id = t.id) AS reversed_by_id,
       (SELECT json_agg(json_build_object('accountId', e.account_id, 'direction', e.direction,
                                          'amount', e.amount_minor::text, 'currency', e.currency) ORDER BY e.leg)
          FROM entries e WHERE e.tenant_id = t.tenant_id AND e.transaction_id = t.id) AS entries
  FROM unnest(:ids::uuid[]) AS named(id)
  JOIN transactions t ON t.tenant_id = :tenantId AND t.id = named.id`);
