import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { newId } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { OutboxRepository } from '@ledger/outbox';
import { AccountRepository } from './account.repository';
import { type AccountView, toAccountView } from './account.view';
import type { CreateAccountRequest } from './create-account.schema';

export interface CreateAccountCommand {
  tenantId: string;
  request: CreateAccountRequest;
  /** An account of that code made meanwhile is fine (accounts made on first use): nothing is written. */
  unlessTaken?: boolean;
}

@Injectable()
export class CreateAccountUseCase {
  constructor(
    private readonly db: Database,
    private readonly accounts: AccountRepository,
    private readonly outbox: OutboxRepository,
  ) {}

  /** The account made; undefined only with `unlessTaken`, when the code was taken. */
  async execute(command: CreateAccountCommand & { unlessTaken: true }): Promise<AccountView | undefined>;
  async execute(command: CreateAccountCommand): Promise<AccountView>;
  async execute({ tenantId, request, unlessTaken }: CreateAccountCommand): Promise<AccountView | undefined> {
    return this.db.transaction('read committed', async () => {
      const account = await this.accounts.insert(tenantId, { id: newId(), ...request });
      if (account === undefined) {
        if (unlessTaken) return undefined;
        throw new DomainError('ACCOUNT_CODE_CONFLICT', `an account with code ${request.code} already exists`, {
          code: request.code,
        });
      }
      const view = toAccountView(account);
      await this.outbox.append(tenantId, [
        {
          type: 'account.created',
          aggregateType: 'account',
          aggregateId: account.id,
          aggregateVersion: 0n,
          data: { account: view },
        },
      ]);
      return view;
    });
  }
}
