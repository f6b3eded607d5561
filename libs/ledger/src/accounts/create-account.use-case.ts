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
}

@Injectable()
export class CreateAccountUseCase {
  constructor(
    private readonly db: Database,
    private readonly accounts: AccountRepository,
    private readonly outbox: OutboxRepository,
  ) {}

  async execute({ tenantId, request }: CreateAccountCommand): Promise<AccountView> {
    return this.db.transaction('read committed', async () => {
      const account = await this.accounts.insert(tenantId, { id: newId(), ...request });
      if (account === undefined) {
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
