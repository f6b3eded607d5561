-- Cheaper statement line storage (a million-line gateway file is stored in one import).
--
-- The gateway's gross and fee were the only content of `extra jsonb`: they become typed columns, exact
-- bigint minor units like amount_minor, and a line stores one jsonb value fewer.
ALTER TABLE statement_lines
  ADD COLUMN gross_minor bigint,
  ADD COLUMN fee_minor bigint,
  ADD CONSTRAINT statement_lines_gross_with_fee CHECK ((gross_minor IS NULL) = (fee_minor IS NULL));

-- Lines already stored keep their gross and fee. Lines are append-only for everyone else; this one
-- rewrite of the table's own shape is the migration's.
ALTER TABLE statement_lines DISABLE TRIGGER statement_lines_append_only;
UPDATE statement_lines
   SET gross_minor = (extra ->> 'grossMinor')::bigint, fee_minor = (extra ->> 'feeMinor')::bigint
 WHERE extra ? 'grossMinor';
ALTER TABLE statement_lines ENABLE TRIGGER statement_lines_append_only;

ALTER TABLE statement_lines DROP COLUMN extra;
