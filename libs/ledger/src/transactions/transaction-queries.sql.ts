import { sql } from '@ledger/db';
import type { EntryView, TransactionStatus } from './transaction.view';

// Reads of transactions as the API shows them: entries, links both ways, journal position.

/** The columns of a `transactions` row that every read of one returns (the journal's reads too). */
export interface TransactionColumns {
  external_ref: string | null;
  description: string | null;
  metadata: Record<string, unknown>;
  effective_at: Date;
  created_at: Date;
  expires_at: Date | null;
  hold_id: string | null;
  reverses_id: string | null;
}

export interface TransactionViewRow extends TransactionColumns {
  id: string;
  status: TransactionStatus;
  actor: string;
  reversed_by_id: string | null;
  resolution: { id: string; status: TransactionStatus } | null;
  stripe: number | null;
  seq: bigint | null;
  hash: Uint8Array | null;
  entries: EntryView[];
}

const TRANSACTION_VIEW = `
SELECT t.id, t.status, t.external_ref, t.description, t.metadata, t.effective_at, t.created_at,
       t.expires_at, t.hold_id, t.reverses_id, t.actor,
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

export const FIND_TRANSACTION = sql<{ tenantId: string; id: string }, TransactionViewRow>(`${TRANSACTION_VIEW}
 WHERE t.tenant_id = :tenantId AND t.id = :id`);

/**
 * The metadata index's predicate, for a transaction row `t`: the index holds only transactions with
 * metadata. Containing a non-empty object implies it, but the planner uses the index only when a query
 * says it as well: every containment test on `t.metadata` is written beside it.
 */
export const T_HAS_METADATA = "t.metadata <> '{}'::jsonb";

/** The list's metadata filter: JSON text of a non-empty object the metadata must contain. */
export const METADATA_FILTER = `(:metadata::text IS NULL
       OR (t.metadata @> :metadata::text::jsonb AND ${T_HAS_METADATA}))`;

/** Newest first (ids are UUIDv7, so id order is creation order), keyset-paged on id. */
export const LIST_TRANSACTIONS = sql<
  {
    tenantId: string;
    externalRef: string | null;
    accountId: string | null;
    from: Date | null;
    to: Date | null;
    beforeId: string | null;
    /** See METADATA_FILTER. */
    metadata: string | null;
    status: TransactionStatus | null;
    limit: number;
  },
  TransactionViewRow
>(`${TRANSACTION_VIEW}
 WHERE t.tenant_id = :tenantId
   AND (:externalRef::text IS NULL OR t.external_ref = :externalRef)
   AND (:accountId::uuid IS NULL OR EXISTS (SELECT 1 FROM entries x
         WHERE x.tenant_id = t.tenant_id AND x.transaction_id = t.id AND x.account_id = :accountId))
   AND (:from::timestamptz IS NULL OR t.created_at >= :from)
   AND (:to::timestamptz IS NULL OR t.created_at < :to)
   AND (:beforeId::uuid IS NULL OR t.id < :beforeId)
   AND ${METADATA_FILTER}
   AND (:status::text IS NULL OR t.status = :status)
 ORDER BY t.id DESC
 LIMIT :limit`);
