import { decodeIdCursor, encodeCursor } from '@ledger/db';
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
    const page = rows.slice(0, command.limit);
    return {
      data: page.map(toAccountView),
      nextCursor: rows.length > command.limit ? encodeCursor([page.at(-1)!.id]) : null,
    };
  }
}
