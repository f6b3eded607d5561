-- A key whose outcome is stored is answered from it even while another transaction holds the key's
-- lock. Until now a retry that met a concurrent replay of the same finished request (which also takes
-- the lock, briefly) was told 409 IDEMPOTENCY_KEY_IN_PROGRESS, though nothing was running any more.
-- A live stored row is final: a transaction holding the lock writes only when no live row exists.
CREATE OR REPLACE FUNCTION ledger_claim_idempotency_key(p_tenant_id uuid, p_key text)
RETURNS TABLE (state text, fingerprint bytea, response_status integer, response_body json)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  locked boolean;
BEGIN
  locked := pg_try_advisory_xact_lock(hashtextextended(p_tenant_id::text || ':' || p_key, 0));
  -- A fresh snapshot (a volatile function's next statement): a holder that committed before the lock
  -- was taken is seen.
  RETURN QUERY
    SELECT k.state, k.fingerprint, k.response_status, k.response_body
      FROM idempotency_keys k
     WHERE k.tenant_id = p_tenant_id AND k.key = p_key AND k.expires_at > now();
  IF NOT FOUND AND NOT locked THEN
    RETURN QUERY SELECT 'in_progress'::text, NULL::bytea, NULL::integer, NULL::json;
  END IF;
END $$;
