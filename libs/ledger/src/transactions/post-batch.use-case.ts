import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { Database, awaitedLater } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { z } from 'zod';
import { BATCH_SIZE_MAX } from '../domain/limits';
import { itemFromRequest } from './new-item';
import { postTransactionSchema } from './post-transaction.schema';
import { type AccountsTaking, type ItemResult, type NewItem, PostingEngine, type SentWrite } from './posting-engine';
import { PlanOutdatedError } from './posting.repository';
import type { GroupedKey } from './posting-groups';
import { TransactionRepository } from './transaction.repository';
import type { TransactionView } from './transaction.view';

/** Items are validated one by one, so one malformed item is that item's error, not the batch's. */
export const postBatchSchema = z.strictObject({ transactions: z.array(z.unknown()).min(1).max(BATCH_SIZE_MAX) });

export interface BatchItemResult {
  index: number;
  status: 'created' | 'exists' | 'error';
  transaction?: TransactionView;
  error?: { code: string; message: string; details: Record<string, unknown> };
}

function errorResult(index: number, error: DomainError): BatchItemResult {
  return { index, status: 'error', error: { code: error.code, message: error.message, details: error.details } };
}

export interface BatchCommand {
  tenantId: string;
  actor: string;
  transactions: unknown[];
}

function validate(body: unknown, actor: string, now: Date): NewItem | DomainError {
  const parsed = postTransactionSchema.safeParse(body);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
    }));
    return new DomainError('VALIDATION_FAILED', 'the transaction is not valid', { fields });
  }
  try {
    return itemFromRequest(parsed.data, actor, now);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}

/** A batch's items, validated one by one before any statement: each a new item or its own refusal. */
type ValidatedItems = (NewItem | DomainError)[];

/** The body a batch answers with, and stores under its Idempotency-Key. */
export interface BatchAnswer {
  results: BatchItemResult[];
}

function validateAll(command: BatchCommand): ValidatedItems {
  const now = new Date();
  return command.transactions.map((body) => validate(body, command.actor, now));
}

function newItemsOf(validated: ValidatedItems): NewItem[] {
  return validated.filter((item): item is NewItem => !(item instanceof DomainError));
}

/**
 * Up to BATCH_SIZE_MAX transactions in one database transaction and a fixed number of statements.
 * Each item is atomic on its own: a refused item leaves no trace and does not affect the others.
 */
@Injectable()
export class PostBatchUseCase {
  private readonly plannedAgainListeners: (() => void)[] = [];

  constructor(
    private readonly db: Database,
    private readonly engine: PostingEngine,
    private readonly transactions: TransactionRepository,
  ) {}

  /** Called with every batch planned again under its locks because its accounts moved (for metrics). */
  onPlannedAgain(listener: () => void): void {
    this.plannedAgainListeners.push(listener);
  }

  /**
   * In the caller's transaction, planned under the accounts' locks; or in one of its own, planned on
   * the accounts read ahead of their locks (see AccountsTaking), and again under them if they moved.
   */
  async execute(command: BatchCommand): Promise<BatchAnswer> {
    const validated = validateAll(command);
    const items = newItemsOf(validated);
    const attempt = (taking: AccountsTaking) =>
      this.db.transaction('read committed', async () => {
        const written = items.length === 0 ? [] : await this.engine.write(command.tenantId, items, taking);
        return this.answer(command.tenantId, validated, written);
      });
    if (this.db.inTransaction) return attempt('locked before planning');
    return this.plannedAheadThenUnderLocks(attempt);
  }

  /**
   * In a transaction of its own, with the request's Idempotency-Key: claimed in the same round trip as
   * the accounts' read, the answer stored behind the write (see awaitedLater) and COMMIT sent behind
   * that, as a posting group does. A key that was already used answers what it stored (a replay).
   */
  async executeWithKey<A>(command: BatchCommand, key: GroupedKey<A, BatchAnswer>): Promise<A> {
    assert.ok(!this.db.inTransaction, 'a keyed batch is written in a transaction of its own');
    const validated = validateAll(command);
    const items = newItemsOf(validated);
    return this.plannedAheadThenUnderLocks((taking) =>
      this.db.transaction('read committed', async () => {
        const claiming = awaitedLater(key.steps.claimAll([key]));
        const locked = items.length === 0 ? undefined : awaitedLater(this.engine.lock(command.tenantId, items, taking));
        const [claim] = await claiming;
        if (claim !== undefined) {
          await locked;
          if (claim instanceof DomainError) throw claim;
          return claim;
        }
        const sent: SentWrite =
          locked === undefined
            ? { results: [], written: Promise.resolve() }
            : await this.engine.send(command.tenantId, items, locked);
        if (sent.results.some((result) => result.status === 'exists')) await sent.written;
        const body = await this.answer(command.tenantId, validated, sent.results);
        const storing = awaitedLater(key.steps.storeAll([{ key, body }]));
        this.db.commitBehindSent();
        await sent.written;
        const [answer] = await storing;
        return answer!;
      }),
    );
  }

  /**
   * A batch planned on its accounts as read before their locks, and, if another posting moved them so
   * that the plan no longer holds, planned again under the locks in a new transaction (the first one
   * rolled back, its key claim with it).
   */
  private async plannedAheadThenUnderLocks<T>(attempt: (taking: AccountsTaking) => Promise<T>): Promise<T> {
    try {
      return await attempt('read ahead of the locks');
    } catch (error) {
      if (!(error instanceof PlanOutdatedError)) throw error;
      for (const listener of this.plannedAgainListeners) listener();
      return attempt('locked before planning');
    }
  }

  /** Every item's result in input order; an `exists` one is read, so its write must be done. */
  private async answer(tenantId: string, validated: ValidatedItems, written: ItemResult[]): Promise<BatchAnswer> {
    const results: BatchItemResult[] = [];
    let offset = 0;
    for (const [index, item] of validated.entries()) {
      if (item instanceof DomainError) {
        results.push(errorResult(index, item));
        continue;
      }
      const result = written[offset++]!;
      if (result.status === 'error') results.push(errorResult(index, result.error));
      else if (result.status === 'created') results.push({ index, status: 'created', transaction: result.transaction });
      else
        results.push({
          index,
          status: 'exists',
          transaction: await this.transactions.findById(tenantId, result.transactionId),
        });
    }
    return { results };
  }
}
