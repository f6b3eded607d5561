import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { CLAIM_KEYS, DELETE_EXPIRED, STORE_OUTCOMES } from './idempotency.sql';

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

  /**
   * Locks each key for the current transaction (or finds it locked) and reads its stored outcome; the
   * claims in the keys' order. The keys are distinct.
   */
  async claimAll(tenantId: string, keys: readonly string[]): Promise<Claim[]> {
    const rows = await this.db.query(CLAIM_KEYS, { tenantId, keys: [...keys] });
    const byKey = new Map(rows.map((row) => [row.key, row]));
    return keys.map((key): Claim => {
      const row = byKey.get(key);
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
    });
  }

  /** `bodyJson` is each outcome's body as JSON text (the caller may send the same text as its answer). */
  async storeAll(
    tenantId: string,
    outcomes: readonly (Omit<StoredOutcome, 'body'> & { key: string; bodyJson: string })[],
    ttlSeconds: number,
  ): Promise<void> {
    await this.db.query(STORE_OUTCOMES, {
      tenantId,
      keys: outcomes.map((outcome) => outcome.key),
      fingerprints: outcomes.map((outcome) => outcome.fingerprint),
      states: outcomes.map((outcome) => outcome.state),
      statuses: outcomes.map((outcome) => outcome.status),
      // Each body is JSON text already: the array of them is their texts joined.
      bodiesJson: `[${outcomes.map((outcome) => outcome.bodyJson).join(',')}]`,
      ttlSeconds,
    });
  }

  /** Removes up to `limit` expired keys; returns how many. */
  async deleteExpired(limit: number): Promise<number> {
    const [row] = await this.db.query(DELETE_EXPIRED, { limit });
    return Number(row!.count);
  }
}
