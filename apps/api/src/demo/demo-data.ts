import type { INestApplicationContext } from '@nestjs/common';
import { CreateApiKeyUseCase, CreateTenantUseCase, TenantReader } from '@ledger/auth';
import { CreateSourceUseCase } from '@ledger/imports';
import { CreateAccountUseCase, PostTransactionUseCase } from '@ledger/ledger';
import {
  CreatePaymentOrderUseCase,
  RegisterConnectorUseCase,
  createPaymentOrderSchema,
  registerConnectorSchema,
} from '@ledger/payments';
import { z } from 'zod';
import { createAccountSchema, postTransactionSchema } from '@ledger/ledger';
import { DEMO_PROVIDER_SECRET, DEMO_PROVIDER_WEBHOOK_SECRET } from './demo-provider';
import { daysAgo, reconcileDemo } from './demo-reconciliation';

// A small, believable book: a marketplace holding customer wallets in USD and EUR.
const DEMO_ACCOUNTS = [
  { code: 'assets:bank:main', currency: 'USD', normalBalance: 'debit', name: 'Operating bank account (USD)' },
  { code: 'assets:bank:eur', currency: 'EUR', normalBalance: 'debit', name: 'Operating bank account (EUR)' },
  { code: 'assets:gateway:clearing', currency: 'USD', normalBalance: 'debit', name: 'Card gateway clearing' },
  { code: 'liabilities:wallets:alice', currency: 'USD', normalBalance: 'credit', name: 'Alice wallet' },
  { code: 'liabilities:wallets:bob', currency: 'USD', normalBalance: 'credit', name: 'Bob wallet' },
  { code: 'liabilities:wallets:carla-eur', currency: 'EUR', normalBalance: 'credit', name: 'Carla wallet (EUR)' },
  { code: 'liabilities:wallets:dan-eur', currency: 'EUR', normalBalance: 'credit', name: 'Dan wallet (EUR)' },
  { code: 'liabilities:wallets:erik-eur', currency: 'EUR', normalBalance: 'credit', name: 'Erik wallet (EUR)' },
  { code: 'liabilities:wallets:fatima-eur', currency: 'EUR', normalBalance: 'credit', name: 'Fatima wallet (EUR)' },
  { code: 'expenses:bank-fees', currency: 'EUR', normalBalance: 'debit', name: 'Bank fees (EUR)' },
  {
    code: 'assets:provider-sim:clearing',
    currency: 'EUR',
    normalBalance: 'debit',
    name: 'Payouts in transit at the payment provider (EUR)',
    allowNegative: true,
  },
  { code: 'income:fees', currency: 'USD', normalBalance: 'credit', name: 'Fee income' },
  { code: 'equity:capital', currency: 'USD', normalBalance: 'credit', name: 'Owner capital', allowNegative: true },
] satisfies z.input<typeof createAccountSchema>[];

function transfer(
  ref: string,
  description: string,
  legs: [string, 'debit' | 'credit', string, string][],
  effectiveAt?: string,
) {
  return postTransactionSchema.parse({
    externalRef: ref,
    description,
    effectiveAt,
    entries: legs.map(([account, direction, amount, currency]) => ({ account, direction, amount, currency })),
  });
}

// The EUR bank account's movements of the last days, which the demo statement reports (or does not).
const eurMovements = (now: Date) => [
  transfer(
    'demo-eur-deposit',
    'Carla deposits by SEPA transfer',
    [
      ['assets:bank:eur', 'debit', '120000', 'EUR'],
      ['liabilities:wallets:carla-eur', 'credit', '120000', 'EUR'],
    ],
    daysAgo(now, 8),
  ),
  // The bank credited 345.00: an amount mismatch.
  transfer(
    'demo-eur-deposit-dan',
    'Dan deposits by SEPA transfer',
    [
      ['assets:bank:eur', 'debit', '35000', 'EUR'],
      ['liabilities:wallets:dan-eur', 'credit', '35000', 'EUR'],
    ],
    daysAgo(now, 7),
  ),
  // The statement line names no reference of ours: matched on amount and day.
  transfer(
    'demo-eur-deposit-fatima',
    'Fatima deposits by SEPA transfer',
    [
      ['assets:bank:eur', 'debit', '50000', 'EUR'],
      ['liabilities:wallets:fatima-eur', 'credit', '50000', 'EUR'],
    ],
    daysAgo(now, 6),
  ),
  // Not on the statement (yet): missing in the statement.
  transfer(
    'demo-eur-payout-carla',
    'Carla withdraws to her bank account',
    [
      ['liabilities:wallets:carla-eur', 'debit', '20000', 'EUR'],
      ['assets:bank:eur', 'credit', '20000', 'EUR'],
    ],
    daysAgo(now, 5),
  ),
  // Booked four days before the bank credited it, under another reference: beyond the matcher's three
  // days, but the likely candidate for that line.
  transfer(
    'demo-eur-deposit-erik',
    'Erik deposits by SEPA transfer',
    [
      ['assets:bank:eur', 'debit', '8900', 'EUR'],
      ['liabilities:wallets:erik-eur', 'credit', '8900', 'EUR'],
    ],
    daysAgo(now, 7),
  ),
];

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
  /** Where the demo's payment provider sends its webhooks (a path of this API). */
  providerWebhookEndpoint: string;
}

// Withdrawals from the EUR wallets, paid out through the provider simulator by the worker.
const DEMO_PAYMENT_ORDERS = [
  { wallet: 'carla-eur', amount: '15000', name: 'Carla Rossi', iban: 'DE89370400440532013000' },
  { wallet: 'fatima-eur', amount: '7500', name: 'Fatima Haddad', iban: 'FR1420041010050500013M02606' },
  { wallet: 'dan-eur', amount: '4000', name: 'Dan Smith', iban: 'NL91ABNA0417164300' },
] as const;

/** The provider simulator as the tenant's connector, and a few payouts through it. */
async function demoPayments(app: INestApplicationContext, tenantId: string, providerPort: number): Promise<string> {
  const connector = await app.get(RegisterConnectorUseCase).execute({
    tenantId,
    actor: 'demo',
    request: registerConnectorSchema.parse({
      name: 'provider-sim',
      kind: 'http',
      baseUrl: `http://127.0.0.1:${providerPort}`,
      secret: DEMO_PROVIDER_SECRET,
      webhookSecret: DEMO_PROVIDER_WEBHOOK_SECRET,
      clearingAccount: 'assets:provider-sim:clearing',
    }),
  });
  for (const { wallet, amount, name, iban } of DEMO_PAYMENT_ORDERS) {
    await app.get(CreatePaymentOrderUseCase).execute({
      tenantId,
      actor: 'demo',
      request: createPaymentOrderSchema.parse({
        connector: connector.name,
        direction: 'payout',
        sourceAccount: `liabilities:wallets:${wallet}`,
        amount,
        currency: 'EUR',
        counterparty: { name, iban },
        externalRef: `demo-withdrawal-${wallet}`,
        description: `Withdrawal to ${name}'s bank account`,
      }),
    });
  }
  return connector.webhookEndpoint;
}

/**
 * Creates the demo tenant through the same use cases the API runs, imports its bank statement and runs
 * one reconciliation (the caller loads it only into a database without tenants: once).
 */
export async function loadDemoData(
  app: INestApplicationContext,
  providerPort: number,
  now = new Date(),
): Promise<DemoCredentials> {
  const created = await app.get(CreateTenantUseCase).execute({ name: 'Demo marketplace' });
  const tenantId = created.tenant.id;
  const poster = await app
    .get(CreateApiKeyUseCase)
    .execute({ tenantId, name: 'demo key', roles: ['poster', 'finance', 'auditor'] });
  for (const account of DEMO_ACCOUNTS) {
    await app.get(CreateAccountUseCase).execute({ tenantId, request: createAccountSchema.parse(account) });
  }
  for (const request of [...DEMO_TRANSACTIONS, ...eurMovements(now), DEMO_HOLD]) {
    await app.get(PostTransactionUseCase).execute({ tenantId, actor: 'demo', request });
  }
  // Statement sources; more files can be imported into them (`format` per file: fixtures/statements/ok).
  await app
    .get(CreateSourceUseCase)
    .execute({ tenantId, name: 'bank-eur', account: 'assets:bank:eur', format: 'csv:bank' });
  await app
    .get(CreateSourceUseCase)
    .execute({ tenantId, name: 'gateway', account: 'assets:gateway:clearing', format: 'csv:gateway' });
  await reconcileDemo(app, tenantId, now);
  const providerWebhookEndpoint = await demoPayments(app, tenantId, providerPort);
  return { tenantId, adminKey: created.apiKey, posterKey: poster.key, providerWebhookEndpoint };
}

/** The demo, loaded on the first start only: undefined when the database already has a tenant. */
export async function loadDemoDataOnce(
  app: INestApplicationContext,
  providerPort: number,
  now = new Date(),
): Promise<DemoCredentials | undefined> {
  if ((await app.get(TenantReader).count()) > 0) return undefined;
  return loadDemoData(app, providerPort, now);
}
