import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { CLAIM_KEY, DELETE_EXPIRED, STORE_OUTCOME } from './idempotency.sql';

export type Claim = { kind: 'in_progress' } | { kind: 'new' } | { kind: 'stored'; outcome: StoredOutcome };

export interface StoredOutcome {
  fingerprint: Buffer;
  state: 'completed' | 'failed';
  status: number;
  body: unknown;
}

/** Keys and their outcomes; claim and store run in the current (the request's) transaction. */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  /** Locks the key for the current transaction (or finds it locked) and reads its stored outcome. */
  async claim(tenantId: string, key: string): Promise<Claim> {
    const [row] = await this.db.query(CLAIM_KEY, { tenantId, key });
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
    tenantId: string,
    key: string,
    outcome: Omit<StoredOutcome, 'body'> & { bodyJson: string },
    ttlSeconds: number,
  ): Promise<void> {
    await this.db.query(STORE_OUTCOME, {
      tenantId,
      key,
      fingerprint: outcome.fingerprint,
      state: outcome.state,
      status: outcome.status,
      bodyJson: outcome.bodyJson,
      ttlSeconds,
    });
  }

  /** Removes up to `limit` expired keys; returns how many. */
  async deleteExpired(limit: number): Promise<number> {
    const [row] = await this.db.query(DELETE_EXPIRED, { limit });
    return Number(row!.count);
  }
}
