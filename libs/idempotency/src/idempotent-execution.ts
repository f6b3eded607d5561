import { Injectable } from '@nestjs/common';
import { Database, type SqlTransaction } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { IdempotencyRepository, type StoredOutcome } from './idempotency.repository';

export const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 3600;

export interface IdempotentRequest {
  tenantId: string;
  key: string;
  /** SHA-256 over method, path and canonical body. */
  fingerprint: Buffer;
  /** Status a successful handler answers with. */
  successStatus: number;
  /** Top-level response fields never stored (secrets shown once). */
  redact: readonly string[];
}

export type Outcome =
  | { kind: 'executed'; body: unknown }
  /** A client error, stored for replay; the caller rethrows it once the key's transaction committed. */
  | { kind: 'failed'; error: DomainError }
  | { kind: 'replayed'; status: number; body: unknown };

/** Deterministic client errors are stored and replayed; 5xx and lock contention are not. */
function isStorableFailure(error: unknown): error is DomainError {
  if (!(error instanceof DomainError)) return false;
  if (error.code === 'IDEMPOTENCY_KEY_IN_PROGRESS' || error.code === 'IDEMPOTENCY_KEY_REUSED') return false;
  return [400, 404, 409, 422].includes(error.status);
}

function redacted(body: unknown, fields: readonly string[]): unknown {
  if (fields.length === 0 || typeof body !== 'object' || body === null) return body;
  return Object.fromEntries(Object.entries(body).map(([name, value]) => [name, fields.includes(name) ? '[shown once]' : value]));
}

/**
 * Runs a request at most once per (tenant, key). The key's outcome is written in the same database
 * transaction as the work itself: either both commit or neither does.
 */
@Injectable()
export class IdempotentExecution {
  constructor(
    private readonly db: Database,
    private readonly keys: IdempotencyRepository,
  ) {}

  async run(request: IdempotentRequest, handler: () => Promise<unknown>): Promise<Outcome> {
    return this.db.transaction('read committed', async (tx) => {
      if (!(await this.keys.tryLock(tx, request.tenantId, request.key))) {
        throw new DomainError('IDEMPOTENCY_KEY_IN_PROGRESS', 'a request with this Idempotency-Key is still running; retry later', {
          key: request.key,
        });
      }
      // A fresh statement after the lock: it sees whatever the previous holder committed.
      const stored = await this.keys.find(tx, request.tenantId, request.key);
      if (stored !== undefined) return this.replay(request, stored);
      return this.execute(tx, request, handler);
    });
  }

  private replay(request: IdempotentRequest, stored: StoredOutcome): Outcome {
    if (!stored.fingerprint.equals(request.fingerprint)) {
      throw new DomainError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used for a different request', {
        key: request.key,
      });
    }
    return { kind: 'replayed', status: stored.status, body: stored.body };
  }

  private async execute(tx: SqlTransaction, request: IdempotentRequest, handler: () => Promise<unknown>): Promise<Outcome> {
    // The savepoint lets a failed handler's writes be undone while the key's lock and its stored
    // failure stay in this transaction.
    await tx.query('SAVEPOINT idempotent_handler');
    let body: unknown;
    try {
      body = await handler();
    } catch (error) {
      if (!isStorableFailure(error)) throw error;
      await tx.query('ROLLBACK TO SAVEPOINT idempotent_handler');
      const failure = { error: { code: error.code, message: error.message, details: error.details } };
      await this.store(tx, request, { fingerprint: request.fingerprint, state: 'failed', status: error.status, body: failure });
      return { kind: 'failed', error };
    }
    await this.store(tx, request, { fingerprint: request.fingerprint, state: 'completed', status: request.successStatus, body });
    return { kind: 'executed', body };
  }

  private async store(tx: SqlTransaction, request: IdempotentRequest, outcome: StoredOutcome): Promise<void> {
    const safe = { ...outcome, body: redacted(outcome.body, request.redact) };
    await this.keys.store(tx, request.tenantId, request.key, safe, IDEMPOTENCY_KEY_TTL_SECONDS);
  }
}
