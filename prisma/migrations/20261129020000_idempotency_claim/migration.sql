-- Claims an idempotency key in one round trip: takes the key's transaction-scoped advisory lock
-- without waiting, then (a fresh snapshot, as a volatile function's next statement) reads the stored
-- outcome. state = 'in_progress' when another transaction holds the key; no row when it is new.
CREATE FUNCTION ledger_claim_idempotency_key(p_tenant_id uuid, p_key text)
RETURNS TABLE (state text, fingerprint bytea, response_status integer, response_body json)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtextextended(p_tenant_id::text || ':' || p_key, 0)) THEN
    RETURN QUERY SELECT 'in_progress'::text, NULL::bytea, NULL::integer, NULL::json;
    RETURN;
  END IF;
  RETURN QUERY
    SELECT k.state, k.fingerprint, k.response_status, k.response_body
      FROM idempotency_keys k
     WHERE k.tenant_id = p_tenant_id AND k.key = p_key AND k.expires_at > now();
END $$;
