-- Reconcile speed: a match's line and entry (each where the row names one: see match_groups) are checked once per statement over all of its rows,
-- not by a foreign key per row. Statement lines and entries are append-only (UPDATE, DELETE and
-- TRUNCATE raise), so a line or entry that exists when the match is written exists for good: the
-- foreign keys' per-row lookups and row locks (FOR KEY SHARE on every matched line and entry, each a
-- heap write) guarded against a removal that cannot happen, and were most of the cost of recording a
-- million matches.
ALTER TABLE matches
  DROP CONSTRAINT matches_tenant_id_statement_line_id_fkey,
  DROP CONSTRAINT matches_tenant_id_transaction_id_leg_fkey;

CREATE FUNCTION matches_assert_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  dangling record;
BEGIN
  SELECT m.statement_line_id, m.transaction_id, m.leg INTO dangling
    FROM changed_matches m
   WHERE (m.statement_line_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM statement_lines l WHERE l.tenant_id = m.tenant_id AND l.id = m.statement_line_id))
      OR (m.transaction_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM entries e
                           WHERE e.tenant_id = m.tenant_id AND e.transaction_id = m.transaction_id AND e.leg = m.leg))
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'a match names statement line % and entry %/%, and one of them does not exist',
      dangling.statement_line_id, dangling.transaction_id, dangling.leg
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;

-- A trigger with a transition table has one event, so one for inserts and one for updates.
CREATE TRIGGER matches_references_inserted AFTER INSERT ON matches
  REFERENCING NEW TABLE AS changed_matches
  FOR EACH STATEMENT EXECUTE FUNCTION matches_assert_references();
CREATE TRIGGER matches_references_updated AFTER UPDATE ON matches
  REFERENCING NEW TABLE AS changed_matches
  FOR EACH STATEMENT EXECUTE FUNCTION matches_assert_references();
