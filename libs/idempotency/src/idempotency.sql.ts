import { sql } from '@ledger/db';

export interface ClaimRow {
  state: 'completed' | 'failed' | 'in_progress';
  fingerprint: Uint8Array;
  response_status: number;
  response_body: unknown;
}

// "In progress" is not a row: it is the key's advisory lock, held by the transaction doing the work
// (see ledger_claim_idempotency_key). It cannot outlive a crash, so a key is never stuck in progress.
// Several keys at once (a posting group's, all distinct): a row for each key that is stored or in
// progress, none for a new one. The locks are tried, never waited for, so their order does not matter.
export const CLAIM_KEYS = sql<{ tenantId: string; keys: string[] }, ClaimRow & { key: string }>(`
SELECT k.key, c.state, c.fingerprint, c.response_status, c.response_body
  FROM unnest(:keys::text[]) AS k(key)
 CROSS JOIN LATERAL ledger_claim_idempotency_key(:tenantId, k.key) AS c`);

// An expired row for the same key is replaced; a live one cannot exist here (we hold the lock).
// The bodies arrive as one JSON array of the bodies' texts, each stored as it is (json elements keep their
// text): no body is escaped into an array literal (a posting group sends hundreds) nor parsed and re-serialised.
export const STORE_OUTCOMES = sql<{
  tenantId: string;
  keys: string[];
  fingerprints: Buffer[];
  states: ('completed' | 'failed')[];
  statuses: number[];
  bodiesJson: string;
  ttlSeconds: number;
}>(`
INSERT INTO idempotency_keys (tenant_id, key, fingerprint, state, response_status, response_body, expires_at)
SELECT :tenantId, o.key, o.fingerprint, o.state, o.status, b.body, now() + make_interval(secs => :ttlSeconds)
  FROM unnest(:keys::text[], :fingerprints::bytea[], :states::text[], :statuses::int4[])
       WITH ORDINALITY AS o(key, fingerprint, state, status, position)
  JOIN json_array_elements(:bodiesJson::json) WITH ORDINALITY AS b(body, position) USING (position)
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
