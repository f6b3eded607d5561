import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { GetTransactionUseCase } from './get-transaction.use-case';
import { itemFromRequest } from './new-item';
import type { PostTransactionRequest } from './post-transaction.schema';
import { PostingEngine } from './posting-engine';
import type { TransactionView } from './transaction.view';

export interface PostTransactionCommand {
  tenantId: string;
  /** Who posts it (recorded on the transaction). */
  actor: string;
  request: PostTransactionRequest;
}

export interface PostTransactionResult {
  transaction: TransactionView;
  /** False when the externalRef named a transaction with the same content that already existed. */
  created: boolean;
}

@Injectable()
export class PostTransactionUseCase {
  constructor(
    private readonly db: Database,
    private readonly engine: PostingEngine,
    private readonly getTransaction: GetTransactionUseCase,
  ) {}

  async execute({ tenantId, actor, request }: PostTransactionCommand): Promise<PostTransactionResult> {
    const item = itemFromRequest(request, actor, new Date());
    return this.db.transaction('read committed', async () => {
      const [result] = await this.engine.write(tenantId, [item]);
      if (result!.status === 'error') throw result!.error;
      if (result!.status === 'created') return { transaction: result!.transaction, created: true };
      return {
        transaction: await this.getTransaction.execute({ tenantId, id: result!.transactionId }),
        created: false,
      };
    });
  }
}
