// Suggestions for a ticket about statement lines: the ledger transactions a person would most likely
// match them to, scored and ranked in one bounded statement. Built from the matchers' own parts
// (candidates.sql.ts), so that "unmatched", "signed" and "never proposed again after an undo" mean here
// exactly what they mean to the rules.
//
// Foreign tables read here (joined with `matches` in one statement, as the matchers do):
// `statement_lines` (libs/imports), `entries` and `transactions` (libs/ledger).

import { sql } from '@ledger/db';
import { type MatchScope, SIGNED_ENTRY, UNMATCHED_ENTRY, UNMATCHED_LINE, rejectedPair } from './candidates.sql';

export type SuggestionParams = MatchScope & {
  lineIds: string[];
  /** Days either side of the lines' booking dates an entry may be effective on. */
  windowDays: number;
  /** How far an entry's amount may be from the lines' total, in basis points of that total. */
  bandBps: number;
  /** Entries of the window kept, and entries read, on either side of the lines' total. */
  nearbyMax: number;
  scanMax: number;
  limit: number;
};

export interface SuggestionRow {
  transaction_id: string;
  external_ref: string | null;
  description: string | null;
  effective_at: Date;
  /** The candidate's unmatched entries on the account: leg, direction, amount (text), currency. */
  entries: { leg: number; direction: 'debit' | 'credit'; amount: string; currency: string }[];
  /** The lines the suggestion is for: the ticket's lines still unmatched. */
  line_ids: string[];
  currency: string;
  /** Signed like the lines (money in positive), minor units as text. */
  amount: string;
  line_amount: string;
  days_apart: number;
  reference: string | null;
  reference_in: 'externalRef' | 'description' | null;
  token: string | null;
  score: number;
}

/**
 * Points per kind of evidence; the total is at most 100. A reference the transaction carries weighs most
 * (the reconciler's first rule), an exact amount next; a near amount scores down to 0 at the band's edge,
 * the date down to 1 at the window's, and a word of the counterparty's name in the description adds a little.
 */
export const SCORE = { sameAmount: 35, nearAmountMax: 20, sameDay: 15, perDayApart: 2, reference: 40, token: 10 };

const WINDOW_DAYS = ':windowDays::int4';
const BAND = 'abs(g.amount) * :bandBps::int4 / 10000';

const ABOVE = `e.amount_minor >= abs(g.amount) AND e.amount_minor <= abs(g.amount) + ${BAND}`;
const BELOW = `e.amount_minor < abs(g.amount) AND e.amount_minor >= abs(g.amount) - ${BAND}`;

/**
 * The unmatched entries nearest the lines' total on one side of it (within the band, at most
 * :nearbyMax) that are effective within the window. The account's amounts index
 * (entries_account_amount_idx) is walked outward from the total for at most :scanMax entries, and only
 * those are filtered: the work is bounded however many entries the account has, at the price of missing
 * an entry in the window when more than :scanMax entries outside it are nearer in amount.
 */
const side = (name: 'above' | 'below') => `${name} AS MATERIALIZED (
  SELECT n.transaction_id, n.leg
    FROM target g
   CROSS JOIN LATERAL (
     SELECT e.transaction_id, e.leg, e.amount_minor
       FROM (SELECT e.tenant_id, e.transaction_id, e.leg, e.amount_minor, e.currency, e.direction, e.effective_at
               FROM entries e
              WHERE e.tenant_id = :tenantId AND e.account_id = :accountId AND NOT e.pending
                AND ${name === 'above' ? ABOVE : BELOW}
              ORDER BY e.amount_minor ${name === 'above' ? 'ASC' : 'DESC'}
              LIMIT :scanMax::int4) e
      WHERE e.effective_at >= ((g.first_on - ${WINDOW_DAYS})::timestamp AT TIME ZONE 'UTC')
        AND e.effective_at < ((g.last_on + ${WINDOW_DAYS} + 1)::timestamp AT TIME ZONE 'UTC')
        AND e.currency = g.currency AND (e.direction = :normalBalance) = (g.amount > 0)
        AND ${UNMATCHED_ENTRY}
      ORDER BY e.amount_minor ${name === 'above' ? 'ASC' : 'DESC'}
      LIMIT :nearbyMax::int4) n
)`;

/**
 * Who is looked at: the ticket's unmatched lines (one, or a group's), their total in one currency, their
 * references and the words of their counterparty's name. Then the entries on the source's account
 * nearest the total on either side (above), and those of a transaction whose externalRef is one of the
 * references (the unique externalRef index), whatever their amount and date.
 */
const NEARBY = `
WITH lines AS MATERIALIZED (
  SELECT l.id, l.amount_minor, l.currency, l.booked_on, l.refs, l.counterparty
    FROM statement_lines l
   WHERE l.tenant_id = :tenantId AND l.source_id = :sourceId AND l.id = ANY(:lineIds::uuid[]) AND ${UNMATCHED_LINE}
), target AS MATERIALIZED (
  SELECT sum(amount_minor)::int8 AS amount, min(currency) AS currency, min(booked_on) AS first_on,
         max(booked_on) AS last_on, array_agg(id ORDER BY id) AS line_ids
    FROM lines
  HAVING count(*) > 0 AND count(DISTINCT currency) = 1
), refs AS MATERIALIZED (
  SELECT DISTINCT k.value AS reference
    FROM lines l CROSS JOIN LATERAL jsonb_each_text(l.refs) AS k(key, value)
   WHERE length(k.value) >= 3
), tokens AS MATERIALIZED (
  SELECT DISTINCT w.token
    FROM lines l
   CROSS JOIN LATERAL regexp_split_to_table(lower(coalesce(l.counterparty->>'name', '')), '[^[:alnum:]]+') AS w(token)
   WHERE length(w.token) >= 3
), ${side('above')}, ${side('below')}, nearby AS (
  SELECT transaction_id, leg FROM above
  UNION
  SELECT transaction_id, leg FROM below
  UNION
  SELECT e.transaction_id, e.leg
    FROM refs r
    JOIN transactions t ON t.tenant_id = :tenantId AND t.external_ref = r.reference
    JOIN entries e ON e.tenant_id = :tenantId AND e.transaction_id = t.id AND e.account_id = :accountId
                  AND NOT e.pending
)`;

/** Each candidate transaction's unmatched entries on the account, never one a person unmatched from these lines. */
const CANDIDATES = `${NEARBY}, candidates AS (
  SELECT e.transaction_id,
         jsonb_agg(jsonb_build_object('leg', e.leg, 'direction', e.direction, 'amount', e.amount_minor::text,
                                      'currency', e.currency::text) ORDER BY e.leg) AS entries,
         sum(${SIGNED_ENTRY})::int8 AS amount, min(e.effective_at) AS effective_at
    FROM nearby n
    JOIN entries e ON e.tenant_id = :tenantId AND e.transaction_id = n.transaction_id AND e.leg = n.leg
    JOIN target g ON e.currency = g.currency
   WHERE ${UNMATCHED_ENTRY}
     AND NOT EXISTS (SELECT 1 FROM lines l WHERE ${rejectedPair('l.id', 'e.transaction_id', 'e.leg')})
   GROUP BY e.transaction_id
), facts AS (
  SELECT c.*, t.external_ref, t.description, g.amount AS line_amount, g.currency, g.line_ids,
         greatest(g.first_on - (c.effective_at AT TIME ZONE 'UTC')::date,
                  (c.effective_at AT TIME ZONE 'UTC')::date - g.last_on, 0) AS days_apart,
         abs(c.amount - g.amount) AS difference,
         coalesce(
           (SELECT r.reference FROM refs r WHERE r.reference = t.external_ref),
           (SELECT min(r.reference) FROM refs r WHERE strpos(lower(t.description), lower(r.reference)) > 0)
         ) AS reference,
         (SELECT min(w.token) FROM tokens w
           WHERE w.token = ANY(regexp_split_to_array(lower(coalesce(t.description, '') || ' ' ||
                                                          coalesce(t.external_ref, '')), '[^[:alnum:]]+'))
         ) AS token
    FROM candidates c
    CROSS JOIN target g
    JOIN transactions t ON t.tenant_id = :tenantId AND t.id = c.transaction_id
)`;

/** The score of each candidate; ties go to the closer amount, then the closer date. */
const SCORED = `
SELECT f.transaction_id, f.external_ref, f.description, f.effective_at, f.entries, f.line_ids, f.currency::text,
       f.amount::text, f.line_amount::text, f.days_apart, f.reference,
       CASE WHEN f.reference IS NULL THEN NULL
            WHEN f.reference = f.external_ref THEN 'externalRef' ELSE 'description' END AS reference_in,
       f.token,
       (CASE WHEN f.difference = 0 THEN ${SCORE.sameAmount}
             ELSE greatest(0, floor(${SCORE.nearAmountMax} - ${SCORE.nearAmountMax} * f.difference::numeric
                                      / greatest(abs(f.line_amount) * :bandBps::int4 / 10000, 1)))::int4 END
        + CASE WHEN f.days_apart <= ${WINDOW_DAYS}
               THEN greatest(0, ${SCORE.sameDay} - ${SCORE.perDayApart} * f.days_apart) ELSE 0 END
        + CASE WHEN f.reference IS NULL THEN 0 ELSE ${SCORE.reference} END
        + CASE WHEN f.token IS NULL THEN 0 ELSE ${SCORE.token} END)::int4 AS score
  FROM facts f`;

export const SUGGEST_TRANSACTIONS = sql<SuggestionParams, SuggestionRow>(`${CANDIDATES}
SELECT * FROM (${SCORED}) s
 ORDER BY s.score DESC, abs(s.amount::int8 - s.line_amount::int8), s.days_apart, s.transaction_id
 LIMIT :limit::int4`);
