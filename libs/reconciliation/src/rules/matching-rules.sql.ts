export const LIST_RULES = `
SELECT position, type, source, tolerance_minor, tolerance_bps, window_days, line_reference, metadata_key, updated_by, updated_at
  FROM matching_rules WHERE tenant_id = $1 ORDER BY position`;

export const DELETE_RULES = `DELETE FROM matching_rules WHERE tenant_id = $1`;

/** All of a tenant's rules in one statement, from parallel arrays. */
export const INSERT_RULES = `
INSERT INTO matching_rules (tenant_id, position, type, source, tolerance_minor, tolerance_bps, window_days, line_reference, metadata_key, updated_by)
SELECT $1, r.position, r.type, r.source, r.tolerance_minor, r.tolerance_bps, r.window_days, r.line_reference, r.metadata_key, $2
  FROM unnest($3::int[], $4::text[], $5::text[], $6::int8[], $7::int[], $8::int[], $9::text[], $10::text[])
       AS r(position, type, source, tolerance_minor, tolerance_bps, window_days, line_reference, metadata_key)`;
