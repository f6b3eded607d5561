-- Accountability: who made each money movement, import and reconciliation run. An actor is
-- `api-key:<key id>` (a request), `operator` (the operator token), `cli:<os user>` (the ledger
-- command), `reconciler` (scheduled runs and their tickets), `expiry` (holds expired by the worker),
-- `inbound:<source id>` (a gateway message's posting) or `demo` (the demo data). Rows written before
-- this migration say `unknown`. Transactions are append-only, so the actor is set once, at insert.
ALTER TABLE transactions ADD COLUMN actor text NOT NULL DEFAULT 'unknown'
  CONSTRAINT transactions_actor_length CHECK (length(actor) BETWEEN 1 AND 200);
ALTER TABLE transactions ALTER COLUMN actor DROP DEFAULT;

ALTER TABLE statement_imports ADD COLUMN actor text NOT NULL DEFAULT 'unknown'
  CONSTRAINT statement_imports_actor_length CHECK (length(actor) BETWEEN 1 AND 200);
ALTER TABLE statement_imports ALTER COLUMN actor DROP DEFAULT;

-- Completing an import may not change who started it either.
CREATE OR REPLACE FUNCTION statement_imports_complete_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.completed_at IS NULL AND NEW.completed_at IS NOT NULL
     AND (NEW.tenant_id, NEW.id, NEW.source_id, NEW.format, NEW.file_name, NEW.created_at, NEW.actor)
         IS NOT DISTINCT FROM
         (OLD.tenant_id, OLD.id, OLD.source_id, OLD.format, OLD.file_name, OLD.created_at, OLD.actor) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'statement_imports: an import is completed once and then never changed (%)', TG_OP USING ERRCODE = 'LG002';
END $$;

ALTER TABLE reconciliation_runs ADD COLUMN actor text NOT NULL DEFAULT 'unknown'
  CONSTRAINT reconciliation_runs_actor_length CHECK (length(actor) BETWEEN 1 AND 200);
ALTER TABLE reconciliation_runs ALTER COLUMN actor DROP DEFAULT;

-- A key may expire: from then on it is refused like a revoked one.
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;

-- The history of a ticket was append-only for rows but could be emptied at once.
CREATE TRIGGER discrepancy_events_no_truncate BEFORE TRUNCATE ON discrepancy_events
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_change();

-- What people did to a match, and what they said, in order: a confirmation or an undo adds a row and
-- never overwrites an earlier note (matches.note is no longer written).
CREATE TABLE match_events (
  tenant_id  uuid NOT NULL REFERENCES tenants (id),
  id         uuid NOT NULL,
  group_id   uuid NOT NULL,
  at         timestamptz NOT NULL DEFAULT now(),
  actor      text NOT NULL CHECK (length(actor) BETWEEN 1 AND 200),
  action     text NOT NULL CHECK (action IN ('created', 'confirmed', 'undone')),
  note       text CHECK (length(note) <= 4000),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX match_events_group_idx ON match_events (tenant_id, group_id, id);
CREATE TRIGGER match_events_append_only BEFORE UPDATE OR DELETE ON match_events
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
CREATE TRIGGER match_events_no_truncate BEFORE TRUNCATE ON match_events
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_change();

-- The decisions made so far, as events; the one note a match kept goes with its latest decision (or
-- its creation by hand). Ids are random here: these rows sort by `at`, then id.
INSERT INTO match_events (tenant_id, id, group_id, at, actor, action, note)
SELECT m.tenant_id, gen_random_uuid(), m.group_id, e.at, e.actor, e.action,
       CASE WHEN e.latest THEN m.note END
  FROM (SELECT DISTINCT ON (tenant_id, group_id) * FROM matches ORDER BY tenant_id, group_id, id) m
 CROSS JOIN LATERAL (VALUES
         ('created', m.created_by, m.created_at, m.confirmed_at IS NULL AND m.undone_at IS NULL),
         ('confirmed', m.confirmed_by, m.confirmed_at, m.undone_at IS NULL),
         ('undone', m.undone_by, m.undone_at, true)) AS e(action, actor, at, latest)
 WHERE e.at IS NOT NULL AND (e.action <> 'created' OR m.rule = 'manual');
