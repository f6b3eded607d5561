-- The lists of one source (GET /v1/imports?source, GET /v1/statement-lines?source): keyset scans that stop
-- at the page's end, instead of every import of the tenant filtered by source, or every line of the source
-- sorted. The lines' index takes the place of (tenant_id, source_id, booked_on), which the matching
-- statements' day ranges use as well.
CREATE INDEX statement_imports_source_idx ON statement_imports (tenant_id, source_id, id);
CREATE INDEX statement_lines_source_booked_idx ON statement_lines (tenant_id, source_id, booked_on, id);
DROP INDEX statement_lines_source_idx;
