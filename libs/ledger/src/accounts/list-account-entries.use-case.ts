import { decodeCursor, pageOf } from '@ledger/db';
import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { AccountRepository } from './account.repository';

export interface AccountEntryView {
  transactionId: string;
  leg: number;
  direction: string;
  /** A hold's entry: it reserved the amount and did not move the posted balance. */
  pending: boolean;
  amount: string;
  currency: string;
  /** The account's posted balance right after this entry. */
  postedBalance: string;
  accountVersion: string;
  effectiveAt: string;
  createdAt: string;
}

export interface ListAccountEntriesCommand {
  tenantId: string;
  account: string;
  cursor?: string;
  limit: number;
}

@Injectable()
export class ListAccountEntriesUseCase {
  constructor(private readonly accounts: AccountRepository) {}

  async execute(command: ListAccountEntriesCommand): Promise<{ data: AccountEntryView[]; nextCursor: string | null }> {
    const account = await this.accounts.findByRef(command.tenantId, command.account);
    if (account === undefined) throw new DomainError('NOT_FOUND', `account ${command.account} not found`);
    const before = command.cursor === undefined ? undefined : BigInt(decodeCursor(command.cursor, /^\d{1,19}$/)[0]!);
    const rows = await this.accounts.listEntries(command.tenantId, account.id, before, command.limit + 1);
    const page = pageOf(rows, command.limit, (last) => [last.accountVersion.toString()]);
    return {
      data: page.data.map((row) => ({
        transactionId: row.transactionId,
        leg: row.leg,
        direction: row.direction,
        pending: row.pending,
        amount: row.amountMinor.toString(),
        currency: row.currency,
        postedBalance: row.postedBalanceAfter.toString(),
        accountVersion: row.accountVersion.toString(),
        effectiveAt: row.effectiveAt.toISOString(),
        createdAt: row.createdAt.toISOString(),
      })),
      nextCursor: page.nextCursor,
    };
  }
}
