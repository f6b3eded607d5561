import type { ApiHarness } from './api-harness';
import {
  DAY_MS,
  type NewAccountBody,
  type TestTenant,
  createAccount,
  createApiKey,
  isoFromNow,
  mustPost,
  postWithKey,
  setupTenant,
  transfer,
} from './ledger-fixtures';

/** The accounts of the audited ledger: four currencies (exponents 2, 2, 0, 3), both normal sides. */
export const AUDIT_ACCOUNTS: NewAccountBody[] = [
  { code: 'assets:bank:usd', currency: 'USD', normalBalance: 'debit' },
  { code: 'assets:bank:eur', currency: 'EUR', normalBalance: 'debit' },
  { code: 'assets:bank:jpy', currency: 'JPY', normalBalance: 'debit' },
  { code: 'assets:bank:bhd', currency: 'BHD', normalBalance: 'debit' },
  { code: 'equity:capital:usd', currency: 'USD', normalBalance: 'credit', allowNegative: true },
  { code: 'equity:capital:jpy', currency: 'JPY', normalBalance: 'credit', allowNegative: true },
  { code: 'equity:capital:bhd', currency: 'BHD', normalBalance: 'credit', allowNegative: true },
  { code: 'equity:fx:usd', currency: 'USD', normalBalance: 'credit', allowNegative: true },
  { code: 'equity:fx:eur', currency: 'EUR', normalBalance: 'credit', allowNegative: true },
  { code: 'liabilities:wallets:alice', currency: 'USD', normalBalance: 'credit' },
  // A sub-account of alice's wallet in hledger's tree: its assertion must hold on its own.
  { code: 'liabilities:wallets:alice:eur', currency: 'EUR', normalBalance: 'credit' },
  { code: 'liabilities:wallets:bob', currency: 'USD', normalBalance: 'credit' },
  { code: 'income:fees:usd', currency: 'USD', normalBalance: 'credit' },
  { code: 'expenses:unused', currency: 'USD', normalBalance: 'debit', allowNegative: true },
];

export interface AuditedLedger {
  tenant: TestTenant;
  auditorKey: string;
  codes: string[];
}

const usd = (debit: string, credit: string, amount: string, extra: Record<string, unknown> = {}) =>
  transfer(debit, credit, amount, 'USD', extra);

/** More postings in USD between alice and bob: used to move the journal on between two proofs. */
export async function postMore(api: ApiHarness, tenant: TestTenant, count: number): Promise<void> {
  for (let index = 0; index < count; index++)
    await mustPost(api, tenant.posterKey, usd('liabilities:wallets:alice', 'liabilities:wallets:bob', `${index + 1}`));
}

/**
 * A realistic small ledger: capital in four currencies, deposits, a payment with a fee, an FX
 * conversion in one transaction (USD and EUR legs each balancing), holds captured in part, voided
 * and left open, a reversal, a back-dated posting, descriptions with characters journals care about.
 */
export async function seedAuditedLedger(api: ApiHarness): Promise<AuditedLedger> {
  const tenant = await setupTenant(api, 'audited');
  const auditorKey = await createApiKey(api, tenant.adminKey, ['auditor']);
  for (const account of AUDIT_ACCOUNTS) await createAccount(api, tenant.adminKey, account);
  const post = (body: unknown) => mustPost(api, tenant.posterKey, body);
  await post(usd('assets:bank:usd', 'equity:capital:usd', '100000000', { description: 'Opening capital' }));
  await post(
    transfer('assets:bank:jpy', 'equity:capital:jpy', '1000000', 'JPY', { description: 'Opening capital (JPY)' }),
  );
  await post(
    transfer('assets:bank:bhd', 'equity:capital:bhd', '1234', 'BHD', {
      description: 'Opening capital; BHD has 3 decimals',
    }),
  );
  await post(
    usd('assets:bank:usd', 'liabilities:wallets:alice', '25000', { externalRef: 'dep-1', description: 'Deposit' }),
  );
  await post(
    usd('assets:bank:usd', 'liabilities:wallets:alice', '100', {
      description: 'Back-dated deposit',
      effectiveAt: isoFromNow(-3 * DAY_MS),
    }),
  );
  await post({
    description: '(payment) alice pays bob; fee 0.50',
    entries: [
      { account: 'liabilities:wallets:alice', direction: 'debit', amount: '1284', currency: 'USD' },
      { account: 'liabilities:wallets:bob', direction: 'credit', amount: '1234', currency: 'USD' },
      { account: 'income:fees:usd', direction: 'credit', amount: '50', currency: 'USD' },
    ],
  });
  await post({
    description: 'FX: alice converts 100.00 USD to 91.50 EUR',
    entries: [
      { account: 'liabilities:wallets:alice', direction: 'debit', amount: '10000', currency: 'USD' },
      { account: 'equity:fx:usd', direction: 'credit', amount: '10000', currency: 'USD' },
      { account: 'equity:fx:eur', direction: 'debit', amount: '9150', currency: 'EUR' },
      { account: 'liabilities:wallets:alice:eur', direction: 'credit', amount: '9150', currency: 'EUR' },
    ],
  });
  const expiresAt = isoFromNow(DAY_MS);
  const captured = await post(
    usd('liabilities:wallets:alice', 'liabilities:wallets:bob', '2000', {
      pending: { expiresAt },
      description: 'Hold, captured in part',
    }),
  );
  expectCreated(await postWithKey(api, tenant.posterKey, `/v1/transactions/${captured.id}/post`, { amount: '1500' }));
  const voided = await post(
    usd('liabilities:wallets:alice', 'liabilities:wallets:bob', '700', {
      pending: { expiresAt },
      description: 'Hold, voided',
    }),
  );
  expectCreated(await postWithKey(api, tenant.posterKey, `/v1/transactions/${voided.id}/void`));
  await post(
    usd('liabilities:wallets:alice', 'liabilities:wallets:bob', '300', {
      pending: { expiresAt },
      description: 'Hold, still open',
    }),
  );
  const mistaken = await post(
    usd('liabilities:wallets:bob', 'liabilities:wallets:alice', '500', { description: 'Sent by mistake' }),
  );
  expectCreated(
    await postWithKey(api, tenant.posterKey, `/v1/transactions/${mistaken.id}/reverse`, {
      description: 'Reversal of a mistake',
    }),
  );
  return { tenant, auditorKey, codes: AUDIT_ACCOUNTS.map((account) => account.code) };
}

function expectCreated(response: { status: number; body: unknown }): void {
  if (response.status !== 201) throw new Error(`expected 201, got ${response.status} ${JSON.stringify(response.body)}`);
}
