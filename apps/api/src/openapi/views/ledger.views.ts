import type {
  AccountEntryView,
  AccountView,
  BalanceView,
  BatchItemResult,
  ListAccountEntriesUseCase,
  ListAccountsUseCase,
  ListTransactionsUseCase,
  TransactionView,
} from '@ledger/ledger';
import { z } from 'zod';
import { type Assert, type Same, type Widened, component, pageOf } from '../components';
import { errorDetail } from './error.views';
import { actor, amount, counter, currency, id, instant, metadata, sha256Hex, side, signedAmount } from './fields';

const transactionStatus = z.enum(['posted', 'pending', 'voided', 'expired']);

export const accountView = component(
  'Account',
  z
    .strictObject({
      id,
      code: z.string().meta({ examples: ['liabilities:wallets:alice'] }),
      name: z.string().nullable(),
      currency,
      normalBalance: side,
      allowNegative: z.boolean(),
      metadata,
      balances: z
        .strictObject({ posted: signedAmount, pending: amount, available: signedAmount })
        .meta({ description: '`available` = `posted` less pending outflows.' }),
      version: counter,
      createdAt: instant,
    })
    .meta({ description: "An account and its balances in minor units (the sign follows the account's normal side)." }),
);

export const balanceView = component(
  'Balance',
  z
    .strictObject({
      account: z.string(),
      currency,
      asOf: instant,
      posted: signedAmount,
      postedDebits: amount,
      postedCredits: amount,
    })
    .meta({
      description: 'The posted balance from the entries effective at or before `asOf` (holds are not counted).',
    }),
);

export const accountEntryView = component(
  'AccountEntry',
  z.strictObject({
    transactionId: id,
    leg: z.number().int().min(0),
    direction: side,
    pending: z.boolean().meta({ description: "A hold's entry: reserved the amount, did not move `posted`." }),
    amount,
    currency,
    postedBalance: signedAmount.meta({ description: "The account's posted balance right after this entry." }),
    accountVersion: counter,
    effectiveAt: instant,
    createdAt: instant,
  }),
);

const entryView = component(
  'Entry',
  z.strictObject({
    leg: z.number().int().min(0),
    accountId: id,
    accountCode: z.string(),
    direction: side,
    pending: z.boolean(),
    amount,
    currency,
  }),
);

export const transactionView = component(
  'Transaction',
  z
    .strictObject({
      id,
      status: transactionStatus,
      externalRef: z.string().nullable(),
      description: z.string().nullable(),
      metadata,
      effectiveAt: instant,
      createdAt: instant,
      expiresAt: instant.nullable().meta({ description: 'Holds only: when it is released if not posted or voided.' }),
      holdId: id.nullable().meta({ description: 'A capture, void or expiry: the hold it resolves.' }),
      reversesId: id.nullable().meta({ description: 'A reversal: the transaction it mirrors.' }),
      actor,
      reversedById: id.nullable(),
      resolution: z.strictObject({ id, status: transactionStatus }).nullable(),
      entries: z.array(entryView),
      journal: z
        .strictObject({ stripe: z.number().int().min(0), seq: counter, hash: sha256Hex })
        .meta({ description: "Where the transaction sits in the tenant's hash-chained journal." }),
    })
    .meta({ description: 'A posted transaction, a hold, or the record that resolves or reverses one.' }),
);

export const batchResultView = component(
  'BatchResult',
  z
    .strictObject({
      results: z.array(
        z.strictObject({
          index: z.number().int().min(0),
          status: z.enum(['created', 'exists', 'error']),
          transaction: transactionView.optional(),
          error: errorDetail.optional(),
        }),
      ),
    })
    .meta({ description: 'One result per transaction sent, in the same order; each item succeeded or failed alone.' }),
);

export const accountPage = pageOf('AccountPage', accountView, 'Accounts, oldest first.');
export const accountEntryPage = pageOf('AccountEntryPage', accountEntryView, 'Entries, newest first.');
export const transactionPage = pageOf('TransactionPage', transactionView, 'Transactions, newest first.');

type Output<Schema extends z.ZodType> = z.output<Schema>;
type Answer<Method extends (...args: never[]) => unknown> = Awaited<ReturnType<Method>>;
export type LedgerViewsMatch = [
  Assert<Same<AccountView, Output<typeof accountView>>>,
  Assert<Same<BalanceView, Output<typeof balanceView>>>,
  Assert<Same<AccountEntryView, Widened<Output<typeof accountEntryView>, 'direction'>>>,
  Assert<Same<TransactionView, Output<typeof transactionView>>>,
  Assert<Same<{ results: BatchItemResult[] }, Output<typeof batchResultView>>>,
  Assert<Same<Answer<ListAccountsUseCase['execute']>, Output<typeof accountPage>>>,
  Assert<
    Same<
      Answer<ListAccountEntriesUseCase['execute']>,
      { data: Widened<Output<typeof accountEntryView>, 'direction'>[]; nextCursor: string | null }
    >
  >,
  Assert<Same<Answer<ListTransactionsUseCase['execute']>, Output<typeof transactionPage>>>,
];
