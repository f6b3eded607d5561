-- Reconciliation: runs, discrepancy tickets with their full history, and owner routing rules.

CREATE TABLE reconciliation_runs (
  tenant_id    uuid NOT NULL REFERENCES tenants (id),
  id           uuid NOT NULL,
  trigger      text NOT NULL CHECK (trigger IN ('schedule', 'api', 'cli')),
  status       text NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
  started_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz,
  -- checked, findings, opened, updated, reopened, resolved, per check.
  stats        jsonb NOT NULL DEFAULT '{}',
  error        text,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX reconciliation_runs_started_idx ON reconciliation_runs (tenant_id, started_at DESC);

-- First matching rule (lowest priority number) names a ticket's owner; a rule with no criteria is the
-- tenant's default owner.
CREATE TABLE owner_routes (
  tenant_id         uuid NOT NULL REFERENCES tenants (id),
  id                uuid NOT NULL,
  priority          integer NOT NULL CHECK (priority BETWEEN 0 AND 1000000),
  kind              text,
  source            text,
  account_prefix    text,
  min_amount_minor  bigint CHECK (min_amount_minor >= 0),
  owner             text NOT NULL CHECK (length(owner) BETWEEN 1 AND 200),
  created_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);

CREATE TABLE discrepancies (
  tenant_id         uuid NOT NULL REFERENCES tenants (id),
  id                uuid NOT NULL,
  -- Stable identity of the cause: a run finds the same ticket again instead of opening a duplicate.
  fingerprint       text NOT NULL CHECK (length(fingerprint) BETWEEN 1 AND 300),
  kind              text NOT NULL CHECK (kind IN ('missing_in_ledger', 'missing_in_statement', 'amount_mismatch',
                      'duplicate', 'currency_mismatch', 'ambiguous_match', 'invariant_violation', 'stale_hold',
                      'balance_continuity')),
  severity          text NOT NULL CHECK (severity IN ('critical', 'high', 'medium', 'low')),
  status            text NOT NULL CHECK (status IN ('open', 'acknowledged', 'resolved', 'ignored')),
  owner             text NOT NULL,
  summary           text NOT NULL,
  amount_minor      bigint,
  currency          char(3),
  account_code      text,
  source            text,
  evidence          jsonb NOT NULL DEFAULT '{}',
  opened_at         timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  due_at            timestamptz NOT NULL,
  resolved_at       timestamptz,
  last_seen_run_id  uuid,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, fingerprint)
);
CREATE INDEX discrepancies_queue_idx ON discrepancies (tenant_id, status, due_at);

-- Who changed what, when: appended for every change of a ticket, never edited.
CREATE TABLE discrepancy_events (
  tenant_id        uuid NOT NULL,
  discrepancy_id   uuid NOT NULL,
  seq              integer NOT NULL CHECK (seq > 0),
  at               timestamptz NOT NULL DEFAULT now(),
  actor            text NOT NULL,
  action           text NOT NULL CHECK (action IN ('opened', 'updated', 'assigned', 'acknowledged', 'resolved',
                     'ignored', 'reopened', 'auto_resolved', 'noted')),
  note             text CHECK (length(note) <= 4000),
  changes          jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (tenant_id, discrepancy_id, seq),
  FOREIGN KEY (tenant_id, discrepancy_id) REFERENCES discrepancies (tenant_id, id)
);
CREATE TRIGGER discrepancy_events_append_only BEFORE UPDATE OR DELETE ON discrepancy_events
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();

-- A statement line matched to the ledger entry it reports, by a rule that says why, or by a person.
-- One-to-one among live matches: a line matches at most one entry and an entry at most one line. A
-- match a person undid stays as a record (and keeps the reconciler from proposing that pair again).
CREATE TABLE matches (
  tenant_id          uuid NOT NULL,
  id                 uuid NOT NULL,
  statement_line_id  uuid NOT NULL,
  transaction_id     uuid NOT NULL,
  leg                smallint NOT NULL,
  rule               text NOT NULL CHECK (rule IN ('reference', 'amount_date', 'manual')),
  evidence           jsonb NOT NULL DEFAULT '{}',
  run_id             uuid,
  created_by         text NOT NULL DEFAULT 'reconciler',
  created_at         timestamptz NOT NULL DEFAULT now(),
  confirmed_by       text,
  confirmed_at       timestamptz,
  undone_by          text,
  undone_at          timestamptz,
  note               text CHECK (length(note) <= 4000),
  PRIMARY KEY (tenant_id, id),
  CHECK ((undone_at IS NULL) = (undone_by IS NULL) AND (confirmed_at IS NULL) = (confirmed_by IS NULL)),
  FOREIGN KEY (tenant_id, statement_line_id) REFERENCES statement_lines (tenant_id, id),
  FOREIGN KEY (tenant_id, transaction_id, leg) REFERENCES entries (tenant_id, transaction_id, leg)
);
CREATE UNIQUE INDEX matches_one_per_line ON matches (tenant_id, statement_line_id) WHERE undone_at IS NULL;
CREATE UNIQUE INDEX matches_one_per_entry ON matches (tenant_id, transaction_id, leg) WHERE undone_at IS NULL;
CREATE INDEX matches_undone_pairs ON matches (tenant_id, statement_line_id, transaction_id, leg) WHERE undone_at IS NOT NULL;
CREATE INDEX statement_lines_source_idx ON statement_lines (tenant_id, source_id, booked_on);
CREATE INDEX entries_account_amount_idx ON entries (tenant_id, account_id, amount_minor) WHERE NOT pending;
