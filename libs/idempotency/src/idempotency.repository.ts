import { Injectable } from '@nestjs/common';
import { Database, type SqlExecutor } from '@ledger/db';

// "In progress" is not a row: it is the key's advisory lock, held by the transaction doing the work
// (see ledger_claim_idempotency_key). It cannot outlive a crash, so a key is never stuck in progress.
const CLAIM_KEY = `SELECT * FROM ledger_claim_idempotency_key($1, $2)`;

// An expired row for the same key is replaced; a live one cannot exist here (we hold the lock).
const STORE_OUTCOME = `
INSERT INTO idempotency_keys (tenant_id, key, fingerprint, state, response_status, response_body, expires_at)
VALUES ($1, $2, $3, $4, $5, $6::text::json, now() + make_interval(secs => $7))
ON CONFLICT (tenant_id, key) DO UPDATE
   SET fingerprint = excluded.fingerprint, state = excluded.state, response_status = excluded.response_status,
       response_body = excluded.response_body, created_at = now(), expires_at = excluded.expires_at
 WHERE idempotency_keys.expires_at <= now()`;

const DELETE_EXPIRED = `
DELETE FROM idempotency_keys
 WHERE (tenant_id, key) IN (SELECT tenant_id, key FROM idempotency_keys WHERE expires_at <= now() LIMIT $1)`;

export type Claim = { kind: 'in_progress' } | { kind: 'new' } | { kind: 'stored'; outcome: StoredOutcome };

export interface StoredOutcome {
  fingerprint: Buffer;
  state: 'completed' | 'failed';
  status: number;
  body: unknown;
}

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  /** Locks the key for this transaction (or finds it locked) and reads its stored outcome. */
  async claim(tx: SqlExecutor, tenantId: string, key: string): Promise<Claim> {
    const rows = await tx.query<{
      state: StoredOutcome['state'] | 'in_progress';
      fingerprint: Uint8Array;
      response_status: number;
      response_body: unknown;
    }>(CLAIM_KEY, [tenantId, key]);
    const row = rows[0];
    if (row === undefined) return { kind: 'new' };
    if (row.state === 'in_progress') return { kind: 'in_progress' };
    return {
      kind: 'stored',
      outcome: {
        fingerprint: Buffer.from(row.fingerprint),
        state: row.state,
        status: row.response_status,
        body: row.response_body,
      },
    };
  }

  /** `bodyJson` is the outcome's body as JSON text (the caller may send the same text as its answer). */
  async store(
    tx: SqlExecutor,
    tenantId: string,
    key: string,
    outcome: Omit<StoredOutcome, 'body'> & { bodyJson: string },
    ttlSeconds: number,
  ): Promise<void> {
    await tx.query(STORE_OUTCOME, [
      tenantId,
      key,
      outcome.fingerprint,
      outcome.state,
      outcome.status,
      outcome.bodyJson,
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
