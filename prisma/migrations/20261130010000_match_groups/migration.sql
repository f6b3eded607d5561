-- Matches become groups: one match joins one or more statement lines to one or more ledger entries
-- (a bank deposit to the payout it settles, a payout's many gateway lines to the ledger's one
-- settlement entry), or lines that cancel each other out with no entry at all (a reversal). A group is stored as rows of `matches` sharing `group_id`, and every line and
-- every entry of the group is on exactly one of its rows: a one-to-one match is one row naming both
-- sides (group_id = id), a group of N lines and M entries is max(N, M) rows, where a row names at most
-- one line and at most one entry. The partial unique indexes thus still say it all: among live
-- matches, a line belongs to one group and an entry to one group. The rule, evidence, run and the
-- confirm/undo columns are the group's, the same on each of its rows.
ALTER TABLE matches ADD COLUMN group_id uuid;
UPDATE matches SET group_id = id;
ALTER TABLE matches ALTER COLUMN group_id SET NOT NULL;
ALTER TABLE matches ALTER COLUMN statement_line_id DROP NOT NULL;
ALTER TABLE matches ALTER COLUMN transaction_id DROP NOT NULL;
ALTER TABLE matches ALTER COLUMN leg DROP NOT NULL;
ALTER TABLE matches ADD CONSTRAINT matches_names_a_member CHECK (statement_line_id IS NOT NULL OR transaction_id IS NOT NULL);
ALTER TABLE matches ADD CONSTRAINT matches_entry_has_leg CHECK ((transaction_id IS NULL) = (leg IS NULL));
ALTER TABLE matches DROP CONSTRAINT matches_rule_check;
ALTER TABLE matches ADD CONSTRAINT matches_rule_check CHECK (rule IN ('reference', 'amount_date', 'group', 'reversal', 'manual'));
CREATE INDEX matches_group_idx ON matches (tenant_id, group_id);

-- A tenant's matching rules, tried in `position` order for each source (or the one source a rule
-- names). Without rows the reconciler uses its built-in rules (see libs/reconciliation README).
--   reference:   a line's reference equals a transaction's externalRef;
--   group:       the lines sharing a reference field's value (e.g. payoutId) against the entries whose
--                transaction's externalRef or metadata[metadata_key] is that value, sums compared;
--   amount_date: equal amount, booking date within window_days, a unique candidate both ways;
--   reversal:    a line and a later line of the same source with the opposite amount and the same
--                references cancel out (a bank's correction of a duplicate): a match of no entry.
-- Amounts are accepted when they differ by at most max(tolerance_minor, |amount| * tolerance_bps / 10000).
CREATE TABLE matching_rules (
  tenant_id        uuid NOT NULL REFERENCES tenants (id),
  position         integer NOT NULL CHECK (position BETWEEN 1 AND 50),
  type             text NOT NULL CHECK (type IN ('reference', 'group', 'amount_date', 'reversal')),
  source           text CHECK (length(source) BETWEEN 1 AND 100),
  tolerance_minor  bigint NOT NULL DEFAULT 0 CHECK (tolerance_minor BETWEEN 0 AND 1000000000000),
  tolerance_bps    integer NOT NULL DEFAULT 0 CHECK (tolerance_bps BETWEEN 0 AND 10000),
  window_days      integer NOT NULL DEFAULT 0 CHECK (window_days BETWEEN 0 AND 31),
  line_reference   text CHECK (length(line_reference) BETWEEN 1 AND 64),
  metadata_key     text CHECK (length(metadata_key) BETWEEN 1 AND 64),
  updated_by       text NOT NULL,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, position),
  CHECK ((type = 'group') = (line_reference IS NOT NULL AND metadata_key IS NOT NULL))
);
