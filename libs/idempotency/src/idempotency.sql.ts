import { sql } from '@ledger/db';

export interface ClaimRow {
  state: 'completed' | 'failed' | 'in_progress';
  fingerprint: Uint8Array;
  response_status: number;
  response_body: unknown;
}

// "In progress" is not a row: it is the key's advisory lock, held by the transaction doing the work
// (see ledger_claim_idempotency_key). It cannot outlive a crash, so a key is never stuck in progress.
export const CLAIM_KEY = sql<{ tenantId: string; key: string }, ClaimRow>(
  'SELECT * FROM ledger_claim_idempotency_key(:tenantId, :key)',
);

// An expired row for the same key is replaced; a live one cannot exist here (we hold the lock).
// The body arrives as JSON text and is stored as it is (::text::json), not parsed and re-serialised.
export const STORE_OUTCOME = sql<{
  tenantId: string;
  key: string;
  fingerprint: Buffer;
  state: 'completed' | 'failed';
  status: number;
  bodyJson: string;
  ttlSeconds: number;
}>(`
INSERT INTO idempotency_keys (tenant_id, key, fingerprint, state, response_status, response_body, expires_at)
VALUES (:tenantId, :key, :fingerprint, :state, :status, :bodyJson::text::json,
        now() + make_interval(secs => :ttlSeconds))
ON CONFLICT (tenant_id, key) DO UPDATE
   SET fingerprint = excluded.fingerprint, state = excluded.state, response_status = excluded.response_status,
       response_body = excluded.response_body, created_at = now(), expires_at = excluded.expires_at
 WHERE idempotency_keys.expires_at <= now()`);

/** At most `:limit` expired keys in one statement, so a purge never holds a long transaction. */
export const DELETE_EXPIRED = sql<{ limit: number }, { count: bigint }>(`
WITH deleted AS (
  DELETE FROM idempotency_keys
   WHERE (tenant_id, key) IN (SELECT tenant_id, key FROM idempotency_keys WHERE expires_at <= now() LIMIT :limit)
  RETURNING 1
)
SELECT count(*)::int8 AS count FROM deleted`);
