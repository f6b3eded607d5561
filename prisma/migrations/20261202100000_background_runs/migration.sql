-- A run started through the API is queued, answered at once, and executed by a worker, which claims
-- the oldest queued run (FOR UPDATE SKIP LOCKED) and makes it running. A queued run has not started:
-- its started_at is null until a worker takes it; queued_at says when it was asked for.
ALTER TABLE reconciliation_runs DROP CONSTRAINT reconciliation_runs_status_check;
ALTER TABLE reconciliation_runs ADD CONSTRAINT reconciliation_runs_status_check
  CHECK (status IN ('queued', 'running', 'completed', 'failed'));
ALTER TABLE reconciliation_runs ADD COLUMN queued_at timestamptz;
UPDATE reconciliation_runs SET queued_at = started_at;
ALTER TABLE reconciliation_runs ALTER COLUMN queued_at SET NOT NULL, ALTER COLUMN queued_at SET DEFAULT now();
ALTER TABLE reconciliation_runs ALTER COLUMN started_at DROP NOT NULL;
ALTER TABLE reconciliation_runs ADD CONSTRAINT reconciliation_runs_started_unless_queued
  CHECK ((status = 'queued') = (started_at IS NULL));

-- Where a run is: its phase and counts, written with its heartbeat (the phase it failed in stays).
ALTER TABLE reconciliation_runs ADD COLUMN progress jsonb NOT NULL DEFAULT '{}';

-- One run at a time per tenant is now one queued or running row: a start while either exists conflicts.
DROP INDEX reconciliation_runs_one_running;
CREATE UNIQUE INDEX reconciliation_runs_one_active ON reconciliation_runs (tenant_id)
  WHERE status IN ('queued', 'running');
CREATE INDEX reconciliation_runs_queue_idx ON reconciliation_runs (queued_at, tenant_id, id) WHERE status = 'queued';
