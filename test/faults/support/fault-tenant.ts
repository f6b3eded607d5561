import { randomUUID } from 'node:crypto';
import { FAULT_OPERATOR_TOKEN, type LedgerStack } from './ledger-stack';

export interface FaultTenant {
  tenantId: string;
  adminKey: string;
  posterKey: string;
  financeKey: string;
  wallets: string[];
  /** Transactions the setup posted (the wallets' funding): in the books, but not the clients'. */
  setupTransactionIds: string[];
}

const WALLET_FUNDING_MINOR = '1000000000';

async function created(stack: LedgerStack, path: string, key: string, body: unknown): Promise<any> {
  const answer = await stack.request('POST', path, { key, body, idempotencyKey: randomUUID() });
  if (answer.status !== 201) throw new Error(`setup ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A tenant with poster and finance keys and `walletCount` wallets funded far beyond what the load moves. */
export async function setupFaultTenant(stack: LedgerStack, walletCount: number): Promise<FaultTenant> {
  const tenant = await stack.request('POST', '/v1/tenants', {
    key: FAULT_OPERATOR_TOKEN,
    body: { name: `faults ${randomUUID().slice(0, 8)}` },
  });
  if (tenant.status !== 201) throw new Error(`tenant: ${tenant.status} ${JSON.stringify(tenant.body)}`);
  const adminKey: string = tenant.body.apiKey;
  const posterKey: string = (await created(stack, '/v1/api-keys', adminKey, { name: 'poster', roles: ['poster'] })).key;
  const financeKey: string = (await created(stack, '/v1/api-keys', adminKey, { name: 'finance', roles: ['finance'] }))
    .key;
  await created(stack, '/v1/accounts', adminKey, {
    code: 'equity:seed',
    currency: 'USD',
    normalBalance: 'credit',
    allowNegative: true,
  });
  const wallets = Array.from({ length: walletCount }, (_, index) => `liabilities:wallets:w${index}`);
  const setupTransactionIds: string[] = [];
  for (const wallet of wallets) {
    await created(stack, '/v1/accounts', adminKey, { code: wallet, currency: 'USD', normalBalance: 'credit' });
    const funding = await created(stack, '/v1/transactions', posterKey, {
      description: 'funding',
      entries: [
        { account: 'equity:seed', direction: 'debit', amount: WALLET_FUNDING_MINOR, currency: 'USD' },
        { account: wallet, direction: 'credit', amount: WALLET_FUNDING_MINOR, currency: 'USD' },
      ],
    });
    setupTransactionIds.push(funding.id);
  }
  return { tenantId: tenant.body.tenant.id, adminKey, posterKey, financeKey, wallets, setupTransactionIds };
}
