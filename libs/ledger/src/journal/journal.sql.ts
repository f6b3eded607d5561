// Reads for re-computing the journal from the stored rows alone.

export const JOURNAL_HEADS = `SELECT stripe, seq, hash FROM journal_heads WHERE tenant_id = $1 ORDER BY stripe`;

export const JOURNAL_PAGE = `
SELECT l.seq, l.transaction_id, l.encoding_version, l.previous_hash, l.hash,
       t.status, t.external_ref, t.description, t.metadata, t.effective_at, t.created_at,
       t.expires_at, t.hold_id, t.reverses_id,
       coalesce((SELECT json_agg(json_build_object('leg', e.leg, 'accountId', e.account_id, 'direction', e.direction,
                                                   'pending', e.pending, 'amount', e.amount_minor::text,
                                                   'currency', e.currency))
                   FROM entries e WHERE e.tenant_id = t.tenant_id AND e.transaction_id = t.id), '[]') AS entries
  FROM journal_links l
  JOIN transactions t ON t.tenant_id = l.tenant_id AND t.id = l.transaction_id
 WHERE l.tenant_id = $1 AND l.stripe = $2 AND l.seq > $3 AND l.seq <= $5
 ORDER BY l.seq
 LIMIT $4`;

export const UNJOURNALED = `
SELECT t.id FROM transactions t
 WHERE t.tenant_id = $1
   AND NOT EXISTS (SELECT 1 FROM journal_links l WHERE l.tenant_id = t.tenant_id AND l.transaction_id = t.id)
 ORDER BY t.id LIMIT 1`;

export const ALL_TENANTS = `SELECT id FROM tenants ORDER BY id`;
