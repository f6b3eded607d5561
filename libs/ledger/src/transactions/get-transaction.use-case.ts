import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { isUuid } from '@ledger/ids';
import { TransactionRepository } from './transaction.repository';
import type { TransactionView } from './transaction.view';

@Injectable()
export class GetTransactionUseCase {
  constructor(private readonly transactions: TransactionRepository) {}

  async execute(command: { tenantId: string; id: string }): Promise<TransactionView> {
    const found = isUuid(command.id)
      ? await this.transactions.findById(command.tenantId, command.id.toLowerCase())
      : undefined;
    if (found === undefined) throw new DomainError('NOT_FOUND', `transaction ${command.id} not found`);
    return found;
  }
}
