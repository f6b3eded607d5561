import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { AccountRepository } from './account.repository';
import { type AccountView, toAccountView } from './account.view';

@Injectable()
export class GetAccountUseCase {
  constructor(private readonly accounts: AccountRepository) {}

  async execute(command: { tenantId: string; account: string }): Promise<AccountView> {
    const account = await this.accounts.findByRef(command.tenantId, command.account);
    if (account === undefined) throw new DomainError('NOT_FOUND', `account ${command.account} not found`);
    return toAccountView(account);
  }
}
