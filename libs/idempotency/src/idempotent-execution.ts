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
 * claimed before the work, the work's outcome stored after it, in the same transaction. A caller that
 * does several requests' work in one transaction (a posting group) takes the steps for all their keys
 * at once, and never puts two keys of the same `name` in one transaction (a key's lock is the
 * transaction's: taken twice by it, it would not keep the second out).
 */
export interface KeyInTransaction {
  /** The tenant and the key: equal for two requests that must not run in one transaction. */
  readonly name: string;
  /** The steps, for any number of keys of one tenant (the same object for every key). */
  readonly steps: KeySteps;
}

/** A key's work done, with this body (stored as its outcome), or refused with nothing written. */
export type KeyResult = { key: KeyInTransaction; body: unknown } | { key: KeyInTransaction; error: DomainError };

export interface KeySteps {
  /**
   * Per key: undefined when its work is to be done; its answer when it was already (a replay); or the
   * error it is answered with (IDEMPOTENCY_KEY_IN_PROGRESS: another transaction holds it;
   * IDEMPOTENCY_KEY_REUSED).
   */
  claimAll(keys: readonly KeyInTransaction[]): Promise<(Outcome | DomainError | undefined)[]>;
  /** Stores each result as its key's outcome; the outcomes in the same order. */
  storeAll(results: readonly KeyResult[]): Promise<Outcome[]>;
}

/** What a key is for the steps: the request it stands for. */
class IdempotentKey implements KeyInTransaction {
  constructor(
    readonly request: IdempotentRequest,
    readonly steps: KeySteps,
  ) {}

  get name(): string {
    return `${this.request.tenantId}:${this.request.key}`;
  }
}

function requestOf(key: KeyInTransaction): IdempotentRequest {
  assert.ok(key instanceof IdempotentKey, 'a key comes from IdempotentExecution');
  return key.request;
}

/** The one tenant of the keys (the steps run for one tenant at a time). */
function tenantOf(keys: readonly KeyInTransaction[]): string {
  const tenantId = requestOf(keys[0]!).tenantId;
  assert.ok(
    keys.every((key) => requestOf(key).tenantId === tenantId),
    "the keys of one step are one tenant's",
  );
  return tenantId;
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
export class IdempotentExecution implements KeySteps {
  constructor(
    private readonly db: Database,
    private readonly keys: IdempotencyRepository,
  ) {}

  async run(request: IdempotentRequest, handler: () => Promise<unknown>): Promise<Outcome> {
    try {
      return await this.db.transaction('read committed', async () => {
        const key = new IdempotentKey(request, this);
        const [claimed] = await this.claimAll([key]);
        if (claimed instanceof DomainError) throw claimed;
        if (claimed !== undefined) return claimed;
        const [outcome] = await this.storeAll([{ key, body: await handler() }]);
        return outcome!;
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
      return await handler(new IdempotentKey(request, this));
    } catch (error) {
      if (!isStorableFailure(error)) throw error;
      return this.storeFailure(request, error);
    }
  }

  async claimAll(keys: readonly KeyInTransaction[]): Promise<(Outcome | DomainError | undefined)[]> {
    if (keys.length === 0) return [];
    const requests = keys.map(requestOf);
    const claims = await this.keys.claimAll(
      tenantOf(keys),
      requests.map((request) => request.key),
    );
    return claims.map((claim, offset) => {
      const request = requests[offset]!;
      if (claim.kind === 'new') return undefined;
      if (claim.kind === 'in_progress') {
        return new DomainError(
          'IDEMPOTENCY_KEY_IN_PROGRESS',
          'a request with this Idempotency-Key is still running; retry later',
          { key: request.key },
        );
      }
      return this.replay(request, claim.outcome);
    });
  }

  async storeAll(results: readonly KeyResult[]): Promise<Outcome[]> {
    if (results.length === 0) return [];
    const stored = results.map((result) => {
      const request = requestOf(result.key);
      if ('error' in result) {
        assert.ok(isStorableFailure(result.error), 'a refusal stored under the key is a client error');
        const { error } = result;
        const body = { error: { code: error.code, message: error.message, details: error.details } };
        const bodyJson = JSON.stringify(body);
        const outcome: Outcome = { kind: 'failed', error };
        return { request, row: { state: 'failed' as const, status: error.status, bodyJson }, outcome };
      }
      const safe = redacted(result.body, request.redact);
      const bodyJson = JSON.stringify(safe);
      const outcome: Outcome = {
        kind: 'executed',
        body: result.body,
        bodyJson: safe !== result.body ? null : bodyJson,
      };
      return { request, row: { state: 'completed' as const, status: request.successStatus, bodyJson }, outcome };
    });
    await this.keys.storeAll(
      tenantOf(results.map((result) => result.key)),
      stored.map(({ request, row }) => ({ key: request.key, fingerprint: request.fingerprint, ...row })),
      IDEMPOTENCY_KEY_TTL_SECONDS,
    );
    return stored.map(({ outcome }) => outcome);
  }

  private async storeFailure(request: IdempotentRequest, error: DomainError): Promise<Outcome> {
    return this.db.transaction('read committed', async () => {
      const key = new IdempotentKey(request, this);
      const [claimed] = await this.claimAll([key]);
      // Another request with this key is running now: its outcome will be the stored one.
      if (claimed instanceof DomainError && claimed.code === 'IDEMPOTENCY_KEY_IN_PROGRESS')
        return { kind: 'failed', error } as const;
      if (claimed instanceof DomainError) throw claimed;
      if (claimed !== undefined) return claimed;
      const [outcome] = await this.storeAll([{ key, error }]);
      return outcome!;
    });
  }

  /** The stored outcome as the answer, or IDEMPOTENCY_KEY_REUSED for another request. */
  private replay(request: IdempotentRequest, stored: StoredOutcome): Outcome | DomainError {
    if (!stored.fingerprint.equals(request.fingerprint)) {
      return new DomainError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used for a different request', {
        key: request.key,
      });
    }
    return { kind: 'replayed', status: stored.status, body: stored.body };
  }
}
