import { Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type Database, DatabaseModule } from '@ledger/db';
import { newId } from '@ledger/ids';
import type { z } from 'zod';
import { CreateAccountUseCase } from '../src/accounts/create-account.use-case';
import { GetAccountUseCase } from '../src/accounts/get-account.use-case';
import { createAccountSchema } from '../src/accounts/create-account.schema';
import { LedgerModule } from '../src/ledger.module';
import { PostBatchUseCase } from '../src/transactions/post-batch.use-case';
import { PostTransactionUseCase } from '../src/transactions/post-transaction.use-case';
import { postTransactionSchema } from '../src/transactions/post-transaction.schema';

/** A two-leg USD transfer as a request body (a batch's item): `from` is debited, `to` credited. */
export function transferBody(from: string, to: string, amount: string, extra: Record<string, unknown> = {}) {
  return {
    entries: [
      { account: from, direction: 'debit', amount, currency: 'USD' },
      { account: to, direction: 'credit', amount, currency: 'USD' },
    ],
    ...extra,
  };
}

/** The ledger's use cases over a real database, wired by the module the apps use. */
export async function ledgerFixture(db: Database) {
  @Module({ imports: [DatabaseModule.forRoot(db), LedgerModule] })
  class LedgerTestModule {}
  const context = await NestFactory.createApplicationContext(LedgerTestModule, { logger: false });
  const get = <T>(type: Type<T>): T => context.get(type);
  const post = get(PostTransactionUseCase);
  return {
    get,
    close: () => context.close(),
    async tenant(): Promise<string> {
      const id = newId();
      await db.sql.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [id, 'fixture tenant']);
      return id;
    },
    account(tenantId: string, request: z.input<typeof createAccountSchema>) {
      return get(CreateAccountUseCase).execute({ tenantId, request: createAccountSchema.parse(request) });
    },
    transfer(
      tenantId: string,
      from: string,
      to: string,
      amount: bigint,
      options: { currency?: string; pendingUntil?: Date; effectiveAt?: Date } = {},
    ) {
      const currency = options.currency ?? 'USD';
      const request = postTransactionSchema.parse({
        entries: [
          { account: from, direction: 'debit', amount: amount.toString(), currency },
          { account: to, direction: 'credit', amount: amount.toString(), currency },
        ],
        ...(options.pendingUntil ? { pending: { expiresAt: options.pendingUntil.toISOString() } } : {}),
        ...(options.effectiveAt ? { effectiveAt: options.effectiveAt.toISOString() } : {}),
      });
      return post.execute({ tenantId, actor: 'test', request });
    },
    post: (tenantId: string, body: z.input<typeof postTransactionSchema>) =>
      post.execute({ tenantId, actor: 'test', request: postTransactionSchema.parse(body) }),
    batch: (tenantId: string, transactions: unknown[]) =>
      get(PostBatchUseCase).execute({ tenantId, actor: 'test', transactions }),
    async balances(tenantId: string, account: string) {
      return (await get(GetAccountUseCase).execute({ tenantId, account })).balances;
    },
  };
}

export type LedgerFixture = Awaited<ReturnType<typeof ledgerFixture>>;
