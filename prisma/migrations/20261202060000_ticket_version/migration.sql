-- A ticket's version: bumped by every change a person or a run makes, so that a person's change can be
-- made only to the ticket as they saw it (PATCH with If-Match).
ALTER TABLE discrepancies ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1);
