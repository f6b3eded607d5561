// A hold is open while its open_holds row exists. Resolvers take the hold's advisory lock first
// (LOCK_TRANSACTION), so racing post/void/expire calls queue, and all but the first find it gone.
export const FIND_OPEN_HOLD = `
SELECT t.id, t.expires_at,
       (SELECT json_agg(json_build_object('accountId', e.account_id, 'direction', e.direction,
                                          'amount', e.amount_minor::text, 'currency', e.currency) ORDER BY e.leg)
          FROM entries e WHERE e.tenant_id = t.tenant_id AND e.transaction_id = t.id) AS entries
  FROM open_holds o
  JOIN transactions t ON t.tenant_id = o.tenant_id AND t.id = o.hold_id
 WHERE o.tenant_id = $1 AND o.hold_id = $2`;

export const FIND_STATUS = `SELECT status FROM transactions WHERE tenant_id = $1 AND id = $2`;

/** Oldest expired holds first, across tenants; bounded per run. */
export const FIND_EXPIRED_HOLDS = `
SELECT tenant_id, hold_id FROM open_holds WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2`;
