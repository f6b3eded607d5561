import { sql } from '@ledger/db';
import type { Side } from '../domain/balances';

// A hold is open while its open_holds row exists. Resolvers take the hold's advisory lock first
// (LOCK_TRANSACTION), so racing post/void/expire calls queue, and all but the first find it gone.

export interface OpenHoldRow {
  id: string;
  expires_at: Date;
  entries: { accountId: string; direction: Side; amount: string; currency: string }[];
}

export const FIND_OPEN_HOLD = sql<{ tenantId: string; holdId: string }, OpenHoldRow>(`
SELECT t.id, t.expires_at,
       (SELECT json_agg(json_build_object('accountId', e.account_id, 'direction', e.direction,
                                          'amount', e.amount_minor::text, 'currency', e.currency) ORDER BY e.leg)
          FROM entries e WHERE e.tenant_id = t.tenant_id AND e.transaction_id = t.id) AS entries
  FROM open_holds o
  JOIN transactions t ON t.tenant_id = o.tenant_id AND t.id = o.hold_id
 WHERE o.tenant_id = :tenantId AND o.hold_id = :holdId`);
