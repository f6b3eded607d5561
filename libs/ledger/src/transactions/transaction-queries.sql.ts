// Reads of transactions as the API shows them: entries, links both ways, journal position.

const TRANSACTION_VIEW = `
SELECT t.id, t.status, t.external_ref, t.description, t.metadata, t.effective_at, t.created_at,
       t.expires_at, t.hold_id, t.reverses_id,
       (SELECT r.id FROM transactions r WHERE r.tenant_id = t.tenant_id AND r.reverses_id = t.id) AS reversed_by_id,
       (SELECT json_build_object('id', h.id, 'status', h.status) FROM transactions h
         WHERE h.tenant_id = t.tenant_id AND h.hold_id = t.id) AS resolution,
       j.stripe, j.seq, j.hash,
       coalesce((SELECT json_agg(json_build_object(
                   'leg', e.leg, 'accountId', e.account_id, 'accountCode', a.code, 'direction', e.direction,
                   'pending', e.pending, 'amount', e.amount_minor::text, 'currency', e.currency) ORDER BY e.leg)
                   FROM entries e JOIN accounts a ON a.tenant_id = e.tenant_id AND a.id = e.account_id
                  WHERE e.tenant_id = t.tenant_id AND e.transaction_id = t.id), '[]') AS entries
  FROM transactions t
  LEFT JOIN journal_links j ON j.tenant_id = t.tenant_id AND j.transaction_id = t.id`;

export const FIND_TRANSACTION = `${TRANSACTION_VIEW}
 WHERE t.tenant_id = $1 AND t.id = $2`;

/** Newest first (ids are UUIDv7, so id order is creation order), keyset-paged on id. */
export const LIST_TRANSACTIONS = `${TRANSACTION_VIEW}
 WHERE t.tenant_id = $1
   AND ($2::text IS NULL OR t.external_ref = $2)
   AND ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM entries x
         WHERE x.tenant_id = t.tenant_id AND x.transaction_id = t.id AND x.account_id = $3))
   AND ($4::timestamptz IS NULL OR t.created_at >= $4)
   AND ($5::timestamptz IS NULL OR t.created_at < $5)
   AND ($6::uuid IS NULL OR t.id < $6)
   AND ($7::text IS NULL OR t.metadata @> $7::text::jsonb)
   AND ($8::text IS NULL OR t.status = $8)
 ORDER BY t.id DESC
 LIMIT $9`;
