import { Injectable } from '@nestjs/common';
import { Database, type SqlExecutor } from '@ledger/db';

// "In progress" is not a row: it is this advisory lock, held by the transaction doing the work. It
// cannot outlive a crash, so a key can never be stuck in progress.
const TRY_LOCK_KEY = `SELECT pg_try_advisory_xact_lock(hashtextextended($1::text || ':' || $2, 0)) AS locked`;

const FIND_LIVE_KEY = `
SELECT fingerprint, state, response_status, response_body
  FROM idempotency_keys
 WHERE tenant_id = $1 AND key = $2 AND expires_at > now()`;

// An expired row for the same key is replaced; a live one cannot exist here (we hold the lock).
const STORE_OUTCOME = `
INSERT INTO idempotency_keys (tenant_id, key, fingerprint, state, response_status, response_body, expires_at)
VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, now() + make_interval(secs => $7))
ON CONFLICT (tenant_id, key) DO UPDATE
   SET fingerprint = excluded.fingerprint, state = excluded.state, response_status = excluded.response_status,
       response_body = excluded.response_body, created_at = now(), expires_at = excluded.expires_at
 WHERE idempotency_keys.expires_at <= now()`;

const DELETE_EXPIRED = `
DELETE FROM idempotency_keys
 WHERE (tenant_id, key) IN (SELECT tenant_id, key FROM idempotency_keys WHERE expires_at <= now() LIMIT $1)`;

export interface StoredOutcome {
  fingerprint: Buffer;
  state: 'completed' | 'failed';
  status: number;
  body: unknown;
}

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  async tryLock(tx: SqlExecutor, tenantId: string, key: string): Promise<boolean> {
    const rows = await tx.query<{ locked: boolean }>(TRY_LOCK_KEY, [tenantId, key]);
    return rows[0]!.locked;
  }

  async find(tx: SqlExecutor, tenantId: string, key: string): Promise<StoredOutcome | undefined> {
    const rows = await tx.query<{ fingerprint: Uint8Array; state: StoredOutcome['state']; response_status: number; response_body: unknown }>(
      FIND_LIVE_KEY,
      [tenantId, key],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return { fingerprint: Buffer.from(row.fingerprint), state: row.state, status: row.response_status, body: row.response_body };
  }

  async store(tx: SqlExecutor, tenantId: string, key: string, outcome: StoredOutcome, ttlSeconds: number): Promise<void> {
    await tx.query(STORE_OUTCOME, [
      tenantId,
      key,
      outcome.fingerprint,
      outcome.state,
      outcome.status,
      JSON.stringify(outcome.body),
      ttlSeconds,
    ]);
  }

  /** Removes up to `limit` expired keys; returns how many. */
  async deleteExpired(limit: number): Promise<number> {
    const rows = await this.db.executor.query<{ count: bigint }>(
      `WITH deleted AS (${DELETE_EXPIRED} RETURNING 1) SELECT count(*)::int8 AS count FROM deleted`,
      [limit],
    );
    return Number(rows[0]!.count);
  }
}
