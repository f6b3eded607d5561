-- A reconciliation run is a series of short transactions (checks, each matching rule, then tickets),
-- so that it never holds one transaction open for minutes (which would hold back the event feed and
-- vacuum). One run at a time per tenant is the 'running' row itself: a second start conflicts with
-- it. A run that stops beating (its process died) is given up after a lease and marked failed.
ALTER TABLE reconciliation_runs ADD COLUMN heartbeat_at timestamptz NOT NULL DEFAULT now();
CREATE UNIQUE INDEX reconciliation_runs_one_running ON reconciliation_runs (tenant_id) WHERE status = 'running';
