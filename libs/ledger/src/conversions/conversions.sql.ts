import { sql } from '@ledger/db';

// Quotes, conversion records and the position report. The postings themselves go through the posting
// engine like any other transaction; these tables only say which transactions are conversions.

export interface QuoteRow {
  id: string;
  from_currency: string;
  to_currency: string;
  rate: string;
  actor: string;
  created_at: Date;
  expires_at: Date;
  used_by_transaction_id: string | null;
  used_at: Date | null;
}

const QUOTE_COLUMNS = `id, from_currency, to_currency, rate, actor, created_at, expires_at, used_by_transaction_id,
       used_at`;

export const INSERT_QUOTE = sql<
  {
    tenantId: string;
    id: string;
    fromCurrency: string;
    toCurrency: string;
    rate: string;
    actor: string;
    createdAt: Date;
    expiresAt: Date;
  },
  QuoteRow
>(`
INSERT INTO fx_quotes (tenant_id, id, from_currency, to_currency, rate, actor, created_at, expires_at)
VALUES (:tenantId, :id, :fromCurrency, :toCurrency, :rate, :actor, :createdAt, :expiresAt)
RETURNING ${QUOTE_COLUMNS}`);

export const GET_QUOTE = sql<{ tenantId: string; id: string }, QuoteRow>(`
SELECT ${QUOTE_COLUMNS} FROM fx_quotes WHERE tenant_id = :tenantId AND id = :id`);

/** Locked until the conversion's transaction ends: a second conversion with the quote waits, then sees it used. */
export const LOCK_QUOTE = sql<{ tenantId: string; id: string }, QuoteRow>(`
SELECT ${QUOTE_COLUMNS} FROM fx_quotes WHERE tenant_id = :tenantId AND id = :id FOR UPDATE`);

export const USE_QUOTE = sql<{ tenantId: string; id: string; transactionId: string; usedAt: Date }, { id: string }>(`
UPDATE fx_quotes SET used_by_transaction_id = :transactionId, used_at = :usedAt
 WHERE tenant_id = :tenantId AND id = :id AND used_by_transaction_id IS NULL
RETURNING id`);

export const INSERT_CONVERSION = sql<
  {
    tenantId: string;
    transactionId: string;
    fromCurrency: string;
    toCurrency: string;
    fromAmountMinor: bigint;
    toAmountMinor: bigint;
    rate: string;
    rounding: string;
    quoteId: string | null;
  },
  { transaction_id: string }
>(`
INSERT INTO fx_conversions (tenant_id, transaction_id, from_currency, to_currency, from_amount_minor,
                            to_amount_minor, rate, rounding, quote_id)
VALUES (:tenantId, :transactionId, :fromCurrency, :toCurrency, :fromAmountMinor, :toAmountMinor, :rate, :rounding,
        :quoteId)
RETURNING transaction_id`);

/** Sums of bigint are numeric: exact text. Reversed conversions are left out (their reversal undid them). */
export const PAIR_TOTALS = sql<
  { tenantId: string; limit: number },
  { from_currency: string; to_currency: string; conversions: string; from_total: string; to_total: string }
>(`
SELECT c.from_currency, c.to_currency, count(*)::text AS conversions,
       sum(c.from_amount_minor)::text AS from_total, sum(c.to_amount_minor)::text AS to_total
  FROM fx_conversions c
 WHERE c.tenant_id = :tenantId
   AND NOT EXISTS (SELECT 1 FROM transactions r WHERE r.tenant_id = c.tenant_id AND r.reverses_id = c.transaction_id)
 GROUP BY c.from_currency, c.to_currency
 ORDER BY c.from_currency, c.to_currency
 LIMIT :limit`);

export const POSITION_ACCOUNTS = sql<
  { tenantId: string; codePrefix: string; limit: number },
  { id: string; code: string; currency: string; posted_debits: bigint; posted_credits: bigint }
>(`
SELECT id, code, currency, posted_debits, posted_credits
  FROM accounts
 WHERE tenant_id = :tenantId AND starts_with(code, :codePrefix)
 ORDER BY code
 LIMIT :limit`);

/** The accounts a conversion names (by id or by code) and its position accounts, in one read. */
export const CONVERSION_ACCOUNTS = sql<
  { tenantId: string; ids: string[]; codes: string[] },
  { id: string; code: string; currency: string }
>(`
SELECT id, code, currency
  FROM accounts
 WHERE tenant_id = :tenantId AND (id = ANY(:ids::uuid[]) OR code = ANY(:codes::text[]))`);
