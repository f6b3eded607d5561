import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { z } from 'zod';
import { BATCH_SIZE_MAX } from '../domain/limits';
import { type NewItem, itemFromRequest } from './new-item';
import { postTransactionSchema } from './post-transaction.schema';
import { type AccountsTaking, PostingEngine, plannedAheadThenUnderLocks } from './posting-engine';
import { type GroupedKey, type WrittenItem, withExisting } from './grouped-request';
import { PostingGroups } from './posting-groups';
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

/** Every item's result in input order, from the written items' results in theirs. */
function answerOf(validated: ValidatedItems, written: readonly WrittenItem[]): BatchAnswer {
  let offset = 0;
  const results = validated.map((item, index): BatchItemResult => {
    if (item instanceof DomainError) return errorResult(index, item);
    const result = written[offset++]!;
    if (result.status === 'error') return errorResult(index, result.error);
    return { index, status: result.status, transaction: result.transaction };
  });
  return { results };
}

/**
 * Up to BATCH_SIZE_MAX transactions in one database transaction and a fixed number of statements
 * (through the API, with the tenant's batches that arrive meanwhile: see executeWithKey).
 * Each item is atomic on its own: a refused item leaves no trace and does not affect the others.
 */
@Injectable()
export class PostBatchUseCase {
  constructor(
    private readonly db: Database,
    private readonly engine: PostingEngine,
    private readonly groups: PostingGroups,
    private readonly transactions: TransactionRepository,
  ) {}

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
        return answerOf(validated, await withExisting(this.transactions, command.tenantId, written));
      });
    if (this.db.inTransaction) return attempt('locked before planning');
    return plannedAheadThenUnderLocks(attempt);
  }

  /**
   * With the request's Idempotency-Key, written with the batches of the tenant that arrive meanwhile
   * (see PostingGroups, lane `batches`): the key claimed in the same round trip as the accounts' read,
   * the answer stored behind the write. A key that was already used answers what it stored (a replay).
   */
  async executeWithKey<A>(command: BatchCommand, key: GroupedKey<A, BatchAnswer>): Promise<A> {
    const validated = validateAll(command);
    const { answer } = await this.groups.submitRequest(command.tenantId, 'batches', {
      items: newItemsOf(validated),
      bytes: 0,
      key,
      outcome: (written) => answerOf(validated, written),
    });
    return answer;
  }
}
