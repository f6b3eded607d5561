import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { AccountRepository, type AccountPostedTotals } from '../accounts/account.repository';
import { JournalRepository } from './journal.repository';

export interface JournalHead {
  stripe: number;
  seq: bigint;
  hash: Buffer;
}

/** A tenant's books at one journal position: every stripe's head, and every account's posted totals. */
export interface Books {
  tenantId: string;
  asOf: Date;
  stripes: JournalHead[];
  accounts: AccountPostedTotals[];
}

/**
 * Reads the journal heads and the balances in one REPEATABLE READ snapshot, so the balances are
 * exactly those of the transactions linked up to those heads (a posting writes its link, its head
 * and its account totals in one database transaction). Balances count the posted entries effective
 * at or before `asOf` (the same rule as GET /v1/accounts/:id/balance?asOf). Called inside another
 * transaction (a request's, which holds its Idempotency-Key), it reads in a separate one beside it.
 */
@Injectable()
export class ReadBooksUseCase {
  constructor(
    private readonly db: Database,
    private readonly journal: JournalRepository,
    private readonly accounts: AccountRepository,
  ) {}

  async execute(command: { tenantId: string; asOf: Date; accountsMax: number }): Promise<Books> {
    const books = await this.inOneSnapshot(async () => ({
      tenantId: command.tenantId,
      asOf: command.asOf,
      stripes: await this.journal.heads(command.tenantId),
      accounts: await this.accounts.balancesAsOf(command.tenantId, command.asOf, { limit: command.accountsMax + 1 }),
    }));
    if (books.accounts.length > command.accountsMax) {
      throw new DomainError(
        'PAYLOAD_TOO_LARGE',
        `the tenant has more than ${command.accountsMax} accounts, the most one proof or export covers`,
      );
    }
    return books;
  }

  /**
   * A REPEATABLE READ transaction of its own; inside an enclosing transaction, a separate one beside
   * it. The embedded database has one connection and runs its transactions one at a time, so there
   * the enclosing transaction is that snapshot: nothing else can commit while it runs.
   */
  private inOneSnapshot<T>(read: () => Promise<T>): Promise<T> {
    if (!this.db.inTransaction) return this.db.transaction('repeatable read', read);
    if (this.db.allowsSeparateTransactions) return this.db.separateTransaction('repeatable read', read);
    return read();
  }
}
