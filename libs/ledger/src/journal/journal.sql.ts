import { sql } from '@ledger/db';
import type { JournalStatus } from '../domain/journal-encoding';
import type { TransactionColumns } from '../transactions/transaction-queries.sql';

// Reads for re-computing the journal from the stored rows alone.

export const JOURNAL_HEADS = sql<{ tenantId: string }, { stripe: number; seq: bigint; hash: Uint8Array }>(
  'SELECT stripe, seq, hash FROM journal_heads WHERE tenant_id = :tenantId ORDER BY stripe',
);

export interface LinkRow extends TransactionColumns {
  seq: bigint;
  transaction_id: string;
  encoding_version: number;
  previous_hash: Uint8Array;
  hash: Uint8Array;
  status: JournalStatus;
  entries: {
    leg: number;
    accountId: string;
    direction: 'debit' | 'credit';
    pending: boolean;
    amount: string;
    currency: string;
  }[];
}

/**
 * A page of one stripe's links with their transactions and entries. Driven from the links, each
 * transaction and its entries looked up by primary key (OFFSET 0 keeps the lookup a lateral one): a
 * hash join over the tenant's transactions would read all of them for every page, and verifying a
 * journal would cost its length squared.
 */
export const JOURNAL_PAGE = sql<
  { tenantId: string; stripe: number; afterSeq: bigint; lastSeq: bigint; limit: number },
  LinkRow
>(`
SELECT l.seq, l.transaction_id, l.encoding_version, l.previous_hash, l.hash,
       t.status, t.external_ref, t.description, t.metadata, t.effective_at, t.created_at,
       t.expires_at, t.hold_id, t.reverses_id, e.entries
  FROM (SELECT * FROM journal_links
         WHERE tenant_id = :tenantId AND stripe = :stripe AND seq > :afterSeq AND seq <= :lastSeq
         ORDER BY seq
         LIMIT :limit) l
  JOIN LATERAL (
       SELECT * FROM transactions t WHERE t.tenant_id = l.tenant_id AND t.id = l.transaction_id OFFSET 0) t ON true
 CROSS JOIN LATERAL (
       SELECT coalesce(json_agg(json_build_object('leg', e.leg, 'accountId', e.account_id, 'direction', e.direction,
                                                  'pending', e.pending, 'amount', e.amount_minor::text,
                                                  'currency', e.currency)), '[]') AS entries
         FROM entries e WHERE e.tenant_id = l.tenant_id AND e.transaction_id = l.transaction_id) e
 ORDER BY l.seq`);

export const UNJOURNALED = sql<{ tenantId: string }, { id: string }>(`
SELECT t.id FROM transactions t
 WHERE t.tenant_id = :tenantId
   AND NOT EXISTS (SELECT 1 FROM journal_links l WHERE l.tenant_id = t.tenant_id AND l.transaction_id = t.id)
 ORDER BY t.id LIMIT 1`);
