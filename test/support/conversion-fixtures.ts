import { randomUUID } from 'node:crypto';
import type { ApiHarness, ApiResponse } from './api-harness';
import { type TestTenant, createAccount, mustPost, setupTenant, transfer } from './ledger-fixtures';

/** A customer with EUR, USD and JPY wallets (credit-normal, never negative), its EUR wallet funded. */
export interface FxCustomer {
  eur: string;
  usd: string;
  jpy: string;
  codes: string[];
}

/** A tenant with a seed account per currency that may go negative, to fund wallets from. */
export async function fxTenant(api: ApiHarness, name = 'fx tenant'): Promise<TestTenant> {
  const tenant = await setupTenant(api, name);
  for (const currency of ['EUR', 'USD', 'JPY']) {
    await createAccount(api, tenant.adminKey, {
      code: `equity:seed:${currency.toLowerCase()}`,
      currency,
      normalBalance: 'credit',
      allowNegative: true,
    });
  }
  return tenant;
}

export async function fxCustomer(api: ApiHarness, tenant: TestTenant, eurFundsMinor: string): Promise<FxCustomer> {
  const name = randomUUID().slice(0, 8);
  const customer = {
    eur: `liabilities:${name}:eur`,
    usd: `liabilities:${name}:usd`,
    jpy: `liabilities:${name}:jpy`,
  };
  for (const [currency, code] of [
    ['EUR', customer.eur],
    ['USD', customer.usd],
    ['JPY', customer.jpy],
  ] as const) {
    await createAccount(api, tenant.adminKey, { code, currency, normalBalance: 'credit' });
  }
  if (eurFundsMinor !== '0')
    await mustPost(api, tenant.posterKey, transfer('equity:seed:eur', customer.eur, eurFundsMinor, 'EUR'));
  return { ...customer, codes: [customer.eur, customer.usd, customer.jpy] };
}

export function convert(api: ApiHarness, key: string, body: unknown, idempotencyKey = randomUUID()) {
  return api.request('POST', '/v1/conversions', { key, idempotencyKey, body });
}

export async function mustConvert(api: ApiHarness, key: string, body: unknown): Promise<any> {
  const answer = await convert(api, key, body);
  if (answer.status !== 201) throw new Error(`conversion failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export function createQuote(api: ApiHarness, key: string, body: unknown, idempotencyKey = randomUUID()) {
  return api.request('POST', '/v1/conversions/quotes', { key, idempotencyKey, body });
}

/** The paths named by `details.fields` of an error answer. */
export function fieldPaths(answer: ApiResponse): string[] {
  return (answer.body?.error?.details?.fields ?? []).map((field: { path: string }) => field.path);
}
