import { sql } from '@ledger/db';

// A person's side of matching: explain, match by hand, confirm, undo. A match is a group of rows of
// `matches` sharing group_id (see the migration match_groups); its id is the group id. Only `matches`
// is read here: the lines and entries a match joins are read through their owners' readers.

/** Members shown per match; the evidence keeps the full counts and sums of a larger group. */
export const MATCH_MEMBERS_SHOWN_MAX = 1_000;
/** Matches listed for one line or transaction (undone ones included). */
export const MATCHES_LISTED_MAX = 200;

export interface MemberRow {
  group_id: string;
  statement_line_id: string | null;
  transaction_id: string | null;
  leg: number | null;
  rule: string;
  evidence: Record<string, unknown>;
  run_id: string | null;
  created_by: string;
  created_at: Date;
  confirmed_by: string | null;
  confirmed_at: Date | null;
  undone_by: string | null;
  undone_at: Date | null;
}

const MEMBER_COLUMNS = `
m.group_id, m.statement_line_id, m.transaction_id, m.leg, m.rule, m.evidence, m.run_id, m.created_by, m.created_at,
m.confirmed_by, m.confirmed_at, m.undone_by, m.undone_at`;

/** Every match of a line or of a transaction, undone ones included (the full story), with its members. */
export const LIST_MATCHES = sql<
  { tenantId: string; statementLineId: string | null; transactionId: string | null },
  MemberRow
>(`
WITH named AS (
  SELECT DISTINCT group_id FROM matches
   WHERE tenant_id = :tenantId
     AND (:statementLineId::uuid IS NULL OR statement_line_id = :statementLineId)
     AND (:transactionId::uuid IS NULL OR transaction_id = :transactionId)
   LIMIT ${MATCHES_LISTED_MAX}
)
SELECT *
  FROM (
    SELECT m.*, row_number() OVER (PARTITION BY m.group_id ORDER BY m.statement_line_id, m.transaction_id, m.leg)
                  AS member
      FROM matches m
     WHERE m.tenant_id = :tenantId AND m.group_id IN (SELECT group_id FROM named)
  ) shown
 WHERE member <= ${MATCH_MEMBERS_SHOWN_MAX}
 ORDER BY created_at, group_id, member`);

export const FIND_MATCH = sql<{ tenantId: string; groupId: string }, MemberRow>(`
SELECT ${MEMBER_COLUMNS}
  FROM matches m
 WHERE m.tenant_id = :tenantId AND m.group_id = :groupId
 ORDER BY m.statement_line_id, m.transaction_id, m.leg
 LIMIT ${MATCH_MEMBERS_SHOWN_MAX}`);

/**
 * The rows of one manual match, from parallel arrays (a null where a row has no line or no entry), and
 * its 'created' event with the note.
 */
export const INSERT_MANUAL_MATCH = sql<
  {
    tenantId: string;
    groupId: string;
    eventId: string;
    actor: string;
    note: string | null;
    lineIds: (string | null)[];
    transactionIds: (string | null)[];
    legs: (number | null)[];
  },
  { id: string }
>(`
WITH inserted AS (
  INSERT INTO matches (tenant_id, id, group_id, statement_line_id, transaction_id, leg, rule, evidence, created_by)
  SELECT :tenantId, gen_random_uuid(), :groupId, r.line_id, r.transaction_id, r.leg, 'manual', '{}', :actor
    FROM unnest(:lineIds::uuid[], :transactionIds::uuid[], :legs::int2[]) AS r(line_id, transaction_id, leg)
  ON CONFLICT DO NOTHING
  RETURNING id
), noted AS (
  INSERT INTO match_events (tenant_id, id, group_id, actor, action, note)
  SELECT :tenantId, :eventId, :groupId, :actor, 'created', :note WHERE EXISTS (SELECT 1 FROM inserted)
)
SELECT id FROM inserted`);

type Decision = { tenantId: string; groupId: string; eventId: string; actor: string; note: string | null };

// A decision and its event in one statement: the event (who, when, the note) is appended, and the
// note of an earlier decision stays as it was.
const DECISION_EVENT = (action: 'confirmed' | 'undone') => `
), noted AS (
  INSERT INTO match_events (tenant_id, id, group_id, actor, action, note)
  SELECT :tenantId, :eventId, :groupId, :actor, '${action}', :note WHERE EXISTS (SELECT 1 FROM decided)
)
SELECT id FROM decided`;

export const CONFIRM_MATCH = sql<Decision, { id: string }>(`
WITH decided AS (
  UPDATE matches SET confirmed_by = :actor, confirmed_at = now()
   WHERE tenant_id = :tenantId AND group_id = :groupId AND undone_at IS NULL AND confirmed_at IS NULL
  RETURNING id
${DECISION_EVENT('confirmed')}`);

export const UNDO_MATCH = sql<Decision, { id: string }>(`
WITH decided AS (
  UPDATE matches SET undone_by = :actor, undone_at = now()
   WHERE tenant_id = :tenantId AND group_id = :groupId AND undone_at IS NULL
  RETURNING id
${DECISION_EVENT('undone')}`);

export interface MatchEventRow {
  group_id: string;
  at: Date;
  actor: string;
  action: 'created' | 'confirmed' | 'undone';
  note: string | null;
}

/** What people did to these matches, oldest first (a match has a few events: made, confirmed, undone). */
export const LIST_MATCH_EVENTS = sql<{ tenantId: string; groupIds: string[] }, MatchEventRow>(`
SELECT group_id, at, actor, action, note
  FROM match_events
 WHERE tenant_id = :tenantId AND group_id = ANY(:groupIds::uuid[])
 ORDER BY group_id, at, id`);

/** Whether any of these lines or entries is in a match that is not undone. */
export const ANY_LIVE_MEMBER = sql<
  { tenantId: string; lineIds: string[]; transactionIds: string[]; legs: number[] },
  { live: boolean }
>(`
SELECT EXISTS (
  SELECT 1 FROM matches m
   WHERE m.tenant_id = :tenantId AND m.undone_at IS NULL AND m.statement_line_id = ANY(:lineIds::uuid[])
  UNION ALL
  SELECT 1 FROM matches m
    JOIN unnest(:transactionIds::uuid[], :legs::int2[]) AS e(transaction_id, leg)
      ON m.transaction_id = e.transaction_id AND m.leg = e.leg
   WHERE m.tenant_id = :tenantId AND m.undone_at IS NULL
) AS live`);
