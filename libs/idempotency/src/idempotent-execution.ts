import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
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
  /** bodyJson: the body as stored, when that is also the answer (nothing redacted), so it is serialised once. */
  | { kind: 'executed'; body: unknown; bodyJson: string | null }
  /** A client error, stored for replay; the caller rethrows it once the key's transaction committed. */
  | { kind: 'failed'; error: DomainError }
  | { kind: 'replayed'; status: number; body: unknown };

/**
 * One request's Idempotency-Key inside a transaction its caller opened, in the steps `run` takes:
 * claim it before the work, store the work's outcome after it, in the same transaction. A caller that
 * runs several requests in one transaction gives each its own key and never two with the same `name`
 * (the key's lock is the transaction's: taken twice by it, it would not keep the second out).
 */
export interface KeyInTransaction {
  /** The tenant and the key: equal for two requests that must not run in one transaction. */
  readonly name: string;
  /**
   * Undefined when the work is to be done; the answer when it was already (a replay). Throws
   * IDEMPOTENCY_KEY_IN_PROGRESS (another transaction holds the key) or IDEMPOTENCY_KEY_REUSED.
   */
  claim(): Promise<Outcome | undefined>;
  /** The work succeeded with this body: stored as the key's outcome. */
  succeeded(body: unknown): Promise<Outcome>;
  /** The work was refused, leaving nothing written: the client error is stored as the key's outcome. */
  refused(error: DomainError): Promise<Outcome>;
}

/**
 * Deterministic client errors are stored and replayed; 5xx are not, nor transient answers (a run or a
 * request with the key still going: `TRANSIENT_ERRORS`), nor a key reused for another request.
 */
function isStorableFailure(error: unknown): error is DomainError {
  if (!(error instanceof DomainError)) return false;
  if (error.transient || error.code === 'IDEMPOTENCY_KEY_REUSED') return false;
  return [400, 404, 409, 422].includes(error.status);
}

function redacted(body: unknown, fields: readonly string[]): unknown {
  if (fields.length === 0 || typeof body !== 'object' || body === null) return body;
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => [name, fields.includes(name) ? '[shown once]' : value]),
  );
}

/**
 * Runs a request at most once per (tenant, key). A success's outcome is written in the same database
 * transaction as the work itself: both commit or neither does. A client error rolls the work back and
 * then stores the error under the key in a second transaction, unless another request with the key
 * stored an outcome first, which is then the answer.
 *
 * This transaction is the request's one transaction: it is ambient, so the handler's use cases, whose
 * own `db.transaction` calls join it, and their repositories' SQL and Prisma queries all run in it.
 */
@Injectable()
export class IdempotentExecution {
  constructor(
    private readonly db: Database,
    private readonly keys: IdempotencyRepository,
  ) {}

  async run(request: IdempotentRequest, handler: () => Promise<unknown>): Promise<Outcome> {
    try {
      return await this.db.transaction('read committed', async () => {
        const key = this.keyOf(request);
        const stored = await key.claim();
        if (stored !== undefined) return stored;
        return key.succeeded(await handler());
      });
    } catch (error) {
      if (!isStorableFailure(error)) throw error;
      return this.storeFailure(request, error);
    }
  }

  /**
   * For a handler that opens the transaction itself and does the work of several requests in it (a
   * posting group): it gets the request's key (see KeyInTransaction) and answers the outcome that key
   * gave. An error it throws means nothing of this request was committed: as in `run`, a client error
   * is then stored under the key in a transaction of its own.
   */
  async runWithKey(request: IdempotentRequest, handler: (key: KeyInTransaction) => Promise<Outcome>): Promise<Outcome> {
    try {
      return await handler(this.keyOf(request));
    } catch (error) {
      if (!isStorableFailure(error)) throw error;
      return this.storeFailure(request, error);
    }
  }

  /** The request's key, for steps run inside whatever transaction is current. */
  private keyOf(request: IdempotentRequest): KeyInTransaction {
    return {
      name: `${request.tenantId}:${request.key}`,
      claim: async () => {
        const claim = await this.keys.claim(request.tenantId, request.key);
        if (claim.kind === 'in_progress') {
          throw new DomainError(
            'IDEMPOTENCY_KEY_IN_PROGRESS',
            'a request with this Idempotency-Key is still running; retry later',
            { key: request.key },
          );
        }
        return claim.kind === 'stored' ? this.replay(request, claim.outcome) : undefined;
      },
      succeeded: async (body) => {
        const stored = await this.store(request, {
          fingerprint: request.fingerprint,
          state: 'completed',
          status: request.successStatus,
          body,
        });
        return { kind: 'executed', body, bodyJson: stored.redacted ? null : stored.bodyJson } as const;
      },
      refused: async (error) => {
        assert.ok(isStorableFailure(error), 'a refusal stored under the key is a client error');
        const body = { error: { code: error.code, message: error.message, details: error.details } };
        await this.store(request, { fingerprint: request.fingerprint, state: 'failed', status: error.status, body });
        return { kind: 'failed', error } as const;
      },
    };
  }

  private async storeFailure(request: IdempotentRequest, error: DomainError): Promise<Outcome> {
    return this.db.transaction('read committed', async () => {
      const claim = await this.keys.claim(request.tenantId, request.key);
      // Another request with this key is running now: its outcome will be the stored one.
      if (claim.kind === 'in_progress') return { kind: 'failed', error } as const;
      if (claim.kind === 'stored') return this.replay(request, claim.outcome);
      return this.keyOf(request).refused(error);
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

  private async store(
    request: IdempotentRequest,
    outcome: StoredOutcome,
  ): Promise<{ bodyJson: string; redacted: boolean }> {
    const { body, ...rest } = outcome;
    const safe = redacted(body, request.redact);
    const bodyJson = JSON.stringify(safe);
    await this.keys.store(request.tenantId, request.key, { ...rest, bodyJson }, IDEMPOTENCY_KEY_TTL_SECONDS);
    return { bodyJson, redacted: safe !== body };
  }
}
