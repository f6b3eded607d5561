import type { INestApplicationContext } from '@nestjs/common';
import { CreateApiKeyUseCase, CreateTenantUseCase } from '@ledger/auth';
import { CreateSourceUseCase } from '@ledger/imports';
import { CreateAccountUseCase, PostTransactionUseCase } from '@ledger/ledger';
import { z } from 'zod';
import { createAccountSchema, postTransactionSchema } from '@ledger/ledger';

// A small, believable book: a marketplace holding customer wallets in USD and EUR.
const DEMO_ACCOUNTS = [
  { code: 'assets:bank:main', currency: 'USD', normalBalance: 'debit', name: 'Operating bank account (USD)' },
  { code: 'assets:bank:eur', currency: 'EUR', normalBalance: 'debit', name: 'Operating bank account (EUR)' },
  { code: 'assets:gateway:clearing', currency: 'USD', normalBalance: 'debit', name: 'Card gateway clearing' },
  { code: 'liabilities:wallets:alice', currency: 'USD', normalBalance: 'credit', name: 'Alice wallet' },
  { code: 'liabilities:wallets:bob', currency: 'USD', normalBalance: 'credit', name: 'Bob wallet' },
  { code: 'liabilities:wallets:carla-eur', currency: 'EUR', normalBalance: 'credit', name: 'Carla wallet (EUR)' },
  { code: 'income:fees', currency: 'USD', normalBalance: 'credit', name: 'Fee income' },
  { code: 'equity:capital', currency: 'USD', normalBalance: 'credit', name: 'Owner capital', allowNegative: true },
] satisfies z.input<typeof createAccountSchema>[];

function transfer(ref: string, description: string, legs: [string, 'debit' | 'credit', string, string][]) {
  return postTransactionSchema.parse({
    externalRef: ref,
    description,
    entries: legs.map(([account, direction, amount, currency]) => ({ account, direction, amount, currency })),
  });
}

const DEMO_TRANSACTIONS = [
  transfer('demo-capital', 'Owner funds the bank account', [
    ['assets:bank:main', 'debit', '5000000', 'USD'],
    ['equity:capital', 'credit', '5000000', 'USD'],
  ]),
  transfer('demo-topup-alice', 'Alice tops up by card', [
    ['assets:gateway:clearing', 'debit', '25000', 'USD'],
    ['liabilities:wallets:alice', 'credit', '25000', 'USD'],
  ]),
  transfer('demo-topup-bob', 'Bob tops up by card', [
    ['assets:gateway:clearing', 'debit', '10000', 'USD'],
    ['liabilities:wallets:bob', 'credit', '10000', 'USD'],
  ]),
  transfer('demo-p2p-1', 'Alice pays Bob, 1% fee', [
    ['liabilities:wallets:alice', 'debit', '5050', 'USD'],
    ['liabilities:wallets:bob', 'credit', '5000', 'USD'],
    ['income:fees', 'credit', '50', 'USD'],
  ]),
  transfer('demo-eur-deposit', 'Carla deposits by SEPA transfer', [
    ['assets:bank:eur', 'debit', '120000', 'EUR'],
    ['liabilities:wallets:carla-eur', 'credit', '120000', 'EUR'],
  ]),
];

// A card authorisation held for a day: it shows up in Alice's pending and available balances.
const DEMO_HOLD = postTransactionSchema.parse({
  externalRef: 'demo-hold-1',
  description: 'Card authorisation at a coffee shop',
  entries: [
    { account: 'liabilities:wallets:alice', direction: 'debit', amount: '450', currency: 'USD' },
    { account: 'income:fees', direction: 'credit', amount: '450', currency: 'USD' },
  ],
  pending: { expiresAt: new Date(Date.now() + 24 * 3600 * 1000).toISOString() },
});

export interface DemoCredentials {
  tenantId: string;
  adminKey: string;
  posterKey: string;
}

/** Creates the demo tenant through the same use cases the API runs. */
export async function loadDemoData(app: INestApplicationContext): Promise<DemoCredentials> {
  const created = await app.get(CreateTenantUseCase).execute({ name: 'Demo marketplace' });
  const tenantId = created.tenant.id;
  const poster = await app
    .get(CreateApiKeyUseCase)
    .execute({ tenantId, name: 'demo key', roles: ['poster', 'finance', 'auditor'] });
  for (const account of DEMO_ACCOUNTS) {
    await app.get(CreateAccountUseCase).execute({ tenantId, request: createAccountSchema.parse(account) });
  }
  for (const request of [...DEMO_TRANSACTIONS, DEMO_HOLD]) {
    await app.get(PostTransactionUseCase).execute({ tenantId, actor: 'demo', request });
  }
  // Statement sources, ready for `POST /v1/imports` with the files under fixtures/statements/ok.
  await app
    .get(CreateSourceUseCase)
    .execute({ tenantId, name: 'bank-eur', account: 'assets:bank:eur', format: 'camt053' });
  await app
    .get(CreateSourceUseCase)
    .execute({ tenantId, name: 'gateway', account: 'assets:gateway:clearing', format: 'csv:gateway' });
  return { tenantId, adminKey: created.apiKey, posterKey: poster.key };
}
