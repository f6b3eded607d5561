import { decodeIdCursor, pageOf } from '@ledger/db';
import { Injectable } from '@nestjs/common';
import { AccountRepository, type AccountFilter } from './account.repository';
import { type AccountView, toAccountView } from './account.view';

export interface ListAccountsCommand {
  tenantId: string;
  currency?: string;
  codePrefix?: string;
  metadata?: Record<string, unknown>;
  cursor?: string;
  limit: number;
}

@Injectable()
export class ListAccountsUseCase {
  constructor(private readonly accounts: AccountRepository) {}

  async execute(command: ListAccountsCommand): Promise<{ data: AccountView[]; nextCursor: string | null }> {
    const filter: AccountFilter = {
      currency: command.currency,
      codePrefix: command.codePrefix,
      metadata: command.metadata,
    };
    if (command.cursor !== undefined) filter.afterId = decodeIdCursor(command.cursor);
    const rows = await this.accounts.list(command.tenantId, filter, command.limit + 1);
    const page = pageOf(rows, command.limit, (last) => [last.id]);
    return { data: page.data.map(toAccountView), nextCursor: page.nextCursor };
  }
}
