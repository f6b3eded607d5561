import { Injectable } from '@nestjs/common';
import { Database, type SqlTransaction, canonicalJson, newId, sha256 } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { OutboxWriter } from '@ledger/outbox';
import { planPosting } from '../domain/posting-plan';
import { assertBalanced, assertDistinctAccounts } from '../domain/transaction-draft';
import { assertEffectiveAtInWindow } from '../domain/effective-at';
import type { PostTransactionRequest } from './post-transaction.schema';
import { TransactionRepository } from './transaction.repository';
import { plannedEntryView } from './transaction-views';
import type { TransactionView } from './transaction.view';
import { GetTransactionUseCase } from './get-transaction.use-case';

export interface PostTransactionCommand {
  tenantId: string;
  request: PostTransactionRequest;
}

export interface PostTransactionResult {
  transaction: TransactionView;
  /** False when the externalRef named a transaction with the same content that already existed. */
  created: boolean;
}

/** What an external reference stands for: the same reference with other content is a conflict. */
function contentHashOf(request: PostTransactionRequest): Buffer {
  return sha256(canonicalJson(request));
}

@Injectable()
export class PostTransactionUseCase {
  constructor(
    private readonly db: Database,
    private readonly transactions: TransactionRepository,
    private readonly outbox: OutboxWriter,
    private readonly getTransaction: GetTransactionUseCase,
  ) {}

  async execute({ tenantId, request }: PostTransactionCommand): Promise<PostTransactionResult> {
    const legs = request.entries.map((leg) => ({ ...leg, amountMinor: leg.amount }));
    assertBalanced(legs);
    assertDistinctAccounts(legs);
    if (request.effectiveAt !== undefined) assertEffectiveAtInWindow(request.effectiveAt, new Date());
    const contentHash = contentHashOf(request);
    const existing = await this.db.transaction('read committed', (tx) => this.post(tx, tenantId, request, contentHash));
    if (typeof existing !== 'string') return { transaction: existing, created: true };
    return { transaction: await this.getTransaction.execute({ tenantId, id: existing }), created: false };
  }

  /** Posts, or returns the id of the transaction that already holds this external reference. */
  private async post(tx: SqlTransaction, tenantId: string, request: PostTransactionRequest, contentHash: Buffer) {
    const id = newId();
    const header = await this.transactions.insertHeader(tx, tenantId, { id, contentHash, ...request });
    if (header === undefined) return this.existingWithSameContent(tx, tenantId, request.externalRef!, contentHash);
    const legs = request.entries.map((leg) => ({ ...leg, amountMinor: leg.amount }));
    const accounts = await this.transactions.lockAccounts(tx, tenantId, [...new Set(legs.map((leg) => leg.account))]);
    const plan = planPosting(legs, accounts);
    await this.transactions.applyPosting(tx, tenantId, id, header.effectiveAt, plan);
    const transaction: TransactionView = {
      id,
      status: 'posted',
      externalRef: request.externalRef ?? null,
      description: request.description ?? null,
      metadata: request.metadata,
      effectiveAt: header.effectiveAt.toISOString(),
      createdAt: header.createdAt.toISOString(),
      entries: plan.entries.map(plannedEntryView),
    };
    await this.outbox.append(tx, tenantId, [
      { type: 'transaction.posted', aggregateType: 'transaction', aggregateId: id, aggregateVersion: 1n, data: { transaction } },
    ]);
    return transaction;
  }

  private async existingWithSameContent(tx: SqlTransaction, tenantId: string, externalRef: string, contentHash: Buffer) {
    const existing = await this.transactions.findByExternalRef(tx, tenantId, externalRef);
    if (existing === undefined) throw new Error(`external reference ${externalRef} conflicted but is not visible`);
    if (!existing.contentHash.equals(contentHash)) {
      throw new DomainError('EXTERNAL_REF_CONFLICT', `externalRef ${externalRef} already names a different transaction`, {
        externalRef,
        transactionId: existing.id,
      });
    }
    return existing.id;
  }
}
