import type { ApiHarness } from './api-harness';
import { DAY_MS, type TestTenant, createAccount, seededTenant } from './ledger-fixtures';
import { createSource, financeKey } from './reconciliation-fixtures';

/** Money in to an account (`assets:bank` unless named), a day ago unless said: debit it, credit income. */
export function deposit(
  amount: string,
  options: { account?: string; ref?: string; description?: string; daysAgo?: number } = {},
) {
  return {
    ...(options.ref ? { externalRef: options.ref } : {}),
    ...(options.description ? { description: options.description } : {}),
    effectiveAt: new Date(Date.now() - (options.daysAgo ?? 1) * DAY_MS).toISOString(),
    entries: [
      { account: options.account ?? 'assets:bank', direction: 'debit', amount, currency: 'USD' },
      { account: 'income:sales', direction: 'credit', amount, currency: 'USD' },
    ],
  };
}

/** A tenant with `assets:bank` (the `bank` source's account, csv:bank), `assets:other`, income, a finance key. */
export async function bankTenant(api: ApiHarness, name: string): Promise<{ tenant: TestTenant; key: string }> {
  const tenant = await seededTenant(api, name);
  for (const code of ['assets:bank', 'assets:other'])
    await createAccount(api, tenant.adminKey, { code, currency: 'USD', normalBalance: 'debit', allowNegative: true });
  await createAccount(api, tenant.adminKey, {
    code: 'income:sales',
    currency: 'USD',
    normalBalance: 'credit',
    allowNegative: true,
  });
  const key = await financeKey(api, tenant);
  await createSource(api, key, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
  return { tenant, key };
}
