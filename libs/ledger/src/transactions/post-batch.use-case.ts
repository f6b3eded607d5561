import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { z } from 'zod';
import { BATCH_SIZE_MAX } from '../domain/limits';
import { itemFromRequest } from './new-item';
import { postTransactionSchema } from './post-transaction.schema';
import { type ItemResult, type NewItem, PostingEngine } from './posting-engine';
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

/**
 * Up to BATCH_SIZE_MAX transactions in one database transaction and a fixed number of statements.
 * Each item is atomic on its own: a refused item leaves no trace and does not affect the others.
 */
@Injectable()
export class PostBatchUseCase {
  constructor(
    private readonly db: Database,
    private readonly engine: PostingEngine,
    private readonly transactions: TransactionRepository,
  ) {}

  async execute(command: {
    tenantId: string;
    actor: string;
    transactions: unknown[];
  }): Promise<{ results: BatchItemResult[] }> {
    const now = new Date();
    const validated = command.transactions.map((body) => validate(body, command.actor, now));
    const items = validated.flatMap((item, index) => (item instanceof DomainError ? [] : [{ index, item }]));
    return this.db.transaction('read committed', async () => {
      const written =
        items.length === 0
          ? []
          : await this.engine.write(
              command.tenantId,
              items.map(({ item }) => item),
            );
      const byIndex = new Map<number, ItemResult>(items.map(({ index }, offset) => [index, written[offset]!]));
      const results: BatchItemResult[] = [];
      for (const [index, item] of validated.entries()) {
        if (item instanceof DomainError) {
          results.push(errorResult(index, item));
          continue;
        }
        const result = byIndex.get(index)!;
        if (result.status === 'error') results.push(errorResult(index, result.error));
        else if (result.status === 'created')
          results.push({ index, status: 'created', transaction: result.transaction });
        else
          results.push({
            index,
            status: 'exists',
            transaction: await this.transactions.findById(command.tenantId, result.transactionId),
          });
      }
      return { results };
    });
  }
}
