-- Interim reports and notifications (MT942, camt.052, camt.054): their lines are stored and matched like a
-- statement's, marked interim. When an end-of-day statement (MT940, camt.053, or any other final format) of
-- the same source brings a line with the same external id, that stored line is made final: it is not stored
-- again, keeps its id and so its matches, and names the import that confirmed it.
ALTER TABLE statement_imports ADD COLUMN interim boolean NOT NULL DEFAULT false;
-- Lines of a final import that were already stored as interim and became final (also counted in duplicates).
ALTER TABLE statement_imports ADD COLUMN finalized integer CONSTRAINT statement_imports_finalized_count
  CHECK (finalized >= 0);

ALTER TABLE statement_lines ADD COLUMN interim boolean NOT NULL DEFAULT false;
ALTER TABLE statement_lines ADD COLUMN final_import_id uuid;
ALTER TABLE statement_lines ADD CONSTRAINT statement_lines_final_import
  FOREIGN KEY (tenant_id, final_import_id) REFERENCES statement_imports (tenant_id, id);
ALTER TABLE statement_lines ADD CONSTRAINT statement_lines_final_not_interim
  CHECK (NOT (interim AND final_import_id IS NOT NULL));

-- A final import looks its lines up among the source's interim ones; most sources have none, so the index
-- holds only what is still interim and the look-up costs next to nothing for them.
CREATE INDEX statement_lines_interim_idx ON statement_lines (tenant_id, source_id, external_id) WHERE interim;

-- Lines stay append-only, with one exception: an interim line is made final once, and nothing else changes.
CREATE FUNCTION statement_lines_finalize_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.interim AND NOT NEW.interim AND OLD.final_import_id IS NULL
     AND NEW.final_import_id IS NOT NULL
     AND to_jsonb(NEW) - 'interim' - 'final_import_id' = to_jsonb(OLD) - 'interim' - 'final_import_id' THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% is append-only: % is not allowed (an interim line may only be made final, once)',
    TG_TABLE_NAME, TG_OP USING ERRCODE = 'LG002';
END $$;
DROP TRIGGER statement_lines_append_only ON statement_lines;
CREATE TRIGGER statement_lines_append_only BEFORE UPDATE OR DELETE ON statement_lines
  FOR EACH ROW EXECUTE FUNCTION statement_lines_finalize_once();
