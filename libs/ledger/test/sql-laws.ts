import { type Database, sqlErrorFields } from '@ledger/db';
import type { LedgerFixture } from './ledger-fixture';

/** One statement and its parameters. */
export type SqlStatement = readonly [text: string, params: readonly unknown[]];

/** What PostgreSQL refused a transaction with. */
export interface SqlRefusal {
  code: string;
  constraint?: string;
}

/**
 * Runs the statements in one READ COMMITTED transaction, bypassing the application: what PostgreSQL
 * refused them with (at a statement or at commit), or undefined when they committed.
 */
export async function sqlRefusal(db: Database, statements: readonly SqlStatement[]): Promise<SqlRefusal | undefined> {
  try {
    await db.sql.transaction('read committed', async (tx) => {
      for (const [text, params] of statements) await tx.query(text, params);
    });
    return undefined;
  } catch (error) {
    const fields = sqlErrorFields(error);
    if (!fields) throw error;
    return { code: fields.code, constraint: fields.constraint };
  }
}

/**
 * A tenant with `assets:cash` (debit-normal, never negative) and `income:sales` (credit-normal, may go
 * negative), and one transaction of 500 posted from the one to the other.
 */
export async function cashAndSalesTenant(ledger: LedgerFixture) {
  const tenantId = await ledger.tenant();
  const cashId = (await ledger.account(tenantId, { code: 'assets:cash', currency: 'USD', normalBalance: 'debit' })).id;
  const salesId = (
    await ledger.account(tenantId, {
      code: 'income:sales',
      currency: 'USD',
      normalBalance: 'credit',
      allowNegative: true,
    })
  ).id;
  const postedId = (await ledger.transfer(tenantId, 'assets:cash', 'income:sales', 500n)).transaction.id;
  return { tenantId, cashId, salesId, postedId };
}
