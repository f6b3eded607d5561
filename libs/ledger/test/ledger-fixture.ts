import { type Database, newId } from '@ledger/db';
import { OutboxWriter } from '@ledger/outbox';
import { AccountRepository } from '../src/accounts/account.repository';
import { CreateAccountUseCase } from '../src/accounts/create-account.use-case';
import { createAccountSchema } from '../src/accounts/create-account.schema';
import { GetTransactionUseCase } from '../src/transactions/get-transaction.use-case';
import { PostTransactionUseCase } from '../src/transactions/post-transaction.use-case';
import { postTransactionSchema } from '../src/transactions/post-transaction.schema';
import { TransactionRepository } from '../src/transactions/transaction.repository';
import { PostingEngine } from '../src/transactions/posting-engine';
import { PostingRepository } from '../src/transactions/posting.repository';
import type { z } from 'zod';

/** The ledger's use cases wired by hand over a real database: no Nest needed. */
export function ledgerFixture(db: Database) {
  const outbox = new OutboxWriter();
  const transactions = new TransactionRepository(db);
  const accounts = new AccountRepository(db);
  const createAccount = new CreateAccountUseCase(db, accounts, outbox);
  const engine = new PostingEngine(new PostingRepository(), outbox);
  const post = new PostTransactionUseCase(db, engine, new GetTransactionUseCase(transactions));
  return {
    async tenant(): Promise<string> {
      const id = newId();
      await db.sql.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [id, 'fixture tenant']);
      return id;
    },
    account(tenantId: string, request: z.input<typeof createAccountSchema>) {
      return createAccount.execute({ tenantId, request: createAccountSchema.parse(request) });
    },
    transfer(tenantId: string, from: string, to: string, amount: bigint, currency = 'USD') {
      const request = postTransactionSchema.parse({
        entries: [
          { account: from, direction: 'debit', amount: amount.toString(), currency },
          { account: to, direction: 'credit', amount: amount.toString(), currency },
        ],
      });
      return post.execute({ tenantId, request });
    },
    post: (tenantId: string, body: z.input<typeof postTransactionSchema>) =>
      post.execute({ tenantId, request: postTransactionSchema.parse(body) }),
  };
}
