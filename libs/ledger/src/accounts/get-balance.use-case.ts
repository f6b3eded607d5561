import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { balancesOf } from '../domain/balances';
import { AccountRepository } from './account.repository';

export interface BalanceView {
  account: string;
  currency: string;
  asOf: string;
  /** The posted balance from entries effective at or before asOf (holds are not historical). */
  posted: string;
  postedDebits: string;
  postedCredits: string;
}

@Injectable()
export class GetBalanceUseCase {
  constructor(private readonly accounts: AccountRepository) {}

  async execute(command: { tenantId: string; account: string; asOf?: Date }): Promise<BalanceView> {
    const account = await this.accounts.findByRef(command.tenantId, command.account);
    if (account === undefined) throw new DomainError('NOT_FOUND', `account ${command.account} not found`);
    const asOf = command.asOf ?? new Date();
    const totals = await this.accounts.postedTotalsAsOf(command.tenantId, account.id, asOf);
    const posted = balancesOf({ ...account, ...totals, pendingDebits: 0n, pendingCredits: 0n }).posted;
    return {
      account: account.code,
      currency: account.currency,
      asOf: asOf.toISOString(),
      posted: posted.toString(),
      postedDebits: totals.postedDebits.toString(),
      postedCredits: totals.postedCredits.toString(),
    };
  }
}
