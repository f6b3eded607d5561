import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { ApiHarness, ApiResponse } from './api-harness';
import { type TestTenant, createAccount, seededTenant } from './ledger-fixtures';
import {
  bankCsv,
  createSource,
  financeKey,
  listTickets,
  runReconciliation,
  statementDay,
  uploadStatement,
} from './reconciliation-fixtures';

export interface TicketTenant {
  tenant: TestTenant;
  key: string;
  /** Its tickets, ascending by id. */
  tickets: any[];
}

/** A tenant with a bank source and `count` deposits the ledger never heard of: that many open tickets. */
export async function tenantWithTickets(api: ApiHarness, name: string, count: number): Promise<TicketTenant> {
  const tenant = await seededTenant(api, name);
  await createAccount(api, tenant.adminKey, {
    code: 'assets:bank',
    currency: 'USD',
    normalBalance: 'debit',
    allowNegative: true,
  });
  const key = await financeKey(api, tenant);
  await createSource(api, key, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
  const day = statementDay(-1);
  const rows = Array.from({ length: count }, (_, index) => `${day},${day},deposit ${index},${index + 1}.10,USD,,payer`);
  await uploadStatement(api, key, 'bank', 'statement.csv', bankCsv(rows));
  await runReconciliation(api, key);
  const tickets = (await listTickets(api, key)).sort((left, right) => (left.id < right.id ? -1 : 1));
  expect(tickets).toHaveLength(count);
  return { tenant, key, tickets };
}

export function postTicket(
  api: ApiHarness,
  key: string,
  path: string,
  body: unknown,
  options: { idempotencyKey?: string; ifMatch?: string } = {},
): Promise<ApiResponse> {
  return api.request('POST', path, {
    key,
    idempotencyKey: options.idempotencyKey ?? randomUUID(),
    body,
    ...(options.ifMatch === undefined ? {} : { headers: { 'if-match': options.ifMatch } }),
  });
}

export async function getTicket(api: ApiHarness, key: string, id: string): Promise<any> {
  const answer = await api.request('GET', `/v1/discrepancies/${id}`, { key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}
