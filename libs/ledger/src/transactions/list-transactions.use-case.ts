import { decodeIdCursor, pageOf } from '@ledger/db';
import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { AccountRepository } from '../accounts/account.repository';
import type { TransactionFilter } from './transaction.repository';
import { TransactionRepository } from './transaction.repository';
import type { TransactionStatus, TransactionView } from './transaction.view';

export interface ListTransactionsCommand {
  tenantId: string;
  account?: string;
  externalRef?: string;
  from?: Date;
  to?: Date;
  status?: TransactionStatus;
  metadata?: Record<string, unknown>;
  cursor?: string;
  limit: number;
}

@Injectable()
export class ListTransactionsUseCase {
  constructor(
    private readonly transactions: TransactionRepository,
    private readonly accounts: AccountRepository,
  ) {}

  async execute(command: ListTransactionsCommand): Promise<{ data: TransactionView[]; nextCursor: string | null }> {
    const filter: TransactionFilter = {
      externalRef: command.externalRef,
      from: command.from,
      to: command.to,
      status: command.status,
      metadata: command.metadata,
    };
    if (command.account !== undefined) {
      const account = await this.accounts.findByRef(command.tenantId, command.account);
      if (account === undefined) throw new DomainError('NOT_FOUND', `account ${command.account} not found`);
      filter.accountId = account.id;
    }
    if (command.cursor !== undefined) {
      filter.beforeId = decodeIdCursor(command.cursor);
    }
    const rows = await this.transactions.list(command.tenantId, filter, command.limit + 1);
    return pageOf(rows, command.limit, (last) => [last.id]);
  }
}
