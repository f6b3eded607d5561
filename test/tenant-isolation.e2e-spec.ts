import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  createApiKey,
  mustPost,
  seededTenant,
  sqlRows,
  transfer,
} from './support/ledger-fixtures';
import {
  bankCsv,
  createSource,
  routeOwner,
  runReconciliation,
  statementDay,
  uploadStatement,
} from './support/reconciliation-fixtures';

// Every route the API documents, called by tenant B with everything of tenant A's it could name: each
// answer is a refusal or B's own (empty) data, never anything of A's, and A's rows stay as they were.
// A route added later without an entry in ROUTE_TARGETS fails this test until someone decides how to
// probe it.

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

interface TenantObjects {
  accountId: string;
  accountCode: string;
  transactionId: string;
  holdId: string;
  importId: string;
  lineId: string;
  discrepancyId: string;
  matchId: string;
  runId: string;
  webhookId: string;
  inboundSourceId: string;
  proofId: string;
  apiKeyId: string;
  ownerRouteId: string;
  quoteId: string;
  paymentOrderId: string;
  connectorId: string;
}

/**
 * What the path parameters of each route name, as objects of the tenant under attack (one value for all, or
 * one per parameter).
 */
const ROUTE_TARGETS: Record<string, (objects: TenantObjects) => string | Record<string, string>> = {
  '/v1/accounts/{account}': (o) => o.accountId,
  '/v1/accounts/{account}/balance': (o) => o.accountId,
  '/v1/accounts/{account}/entries': (o) => o.accountId,
  '/v1/transactions/{id}': (o) => o.transactionId,
  '/v1/transactions/{id}/post': (o) => o.holdId,
  '/v1/transactions/{id}/void': (o) => o.holdId,
  '/v1/transactions/{id}/reverse': (o) => o.transactionId,
  '/v1/imports/{id}': (o) => o.importId,
  '/v1/imports/{id}/lines': (o) => o.importId,
  '/v1/statement-lines/{id}': (o) => o.lineId,
  '/v1/matches/{id}': (o) => o.matchId,
  '/v1/reconciliation/runs/{id}': (o) => o.runId,
  '/v1/discrepancies/{id}': (o) => o.discrepancyId,
  '/v1/discrepancies/{id}/reopen': (o) => o.discrepancyId,
  '/v1/discrepancies/{id}/comments': (o) => o.discrepancyId,
  '/v1/discrepancies/{id}/candidates': (o) => o.discrepancyId,
  '/v1/discrepancies/{id}/adjustments': (o) => o.discrepancyId,
  '/v1/webhooks/{id}': (o) => o.webhookId,
  '/v1/api-keys/{id}': (o) => o.apiKeyId,
  '/v1/owner-routes/{id}': (o) => o.ownerRouteId,
  '/v1/webhooks/{id}/rotate-secret': (o) => o.webhookId,
  '/v1/webhooks/{id}/deliveries': (o) => o.webhookId,
  '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver': (o) => ({ id: o.webhookId, deliveryId: o.webhookId }),
  // Signed by the source's secret, not an API key: B cannot sign for A's source.
  '/v1/inbound/{source}': (o) => o.inboundSourceId,
  '/v1/proofs/balances/{account}': (o) => o.accountId,
  '/v1/conversions/quotes/{id}': (o) => o.quoteId,
  '/v1/payment-orders/{id}': (o) => o.paymentOrderId,
  '/v1/payment-orders/{id}/cancel': (o) => o.paymentOrderId,
  // Signed by the connector's webhook secret, not an API key: B cannot sign for A's connector.
  '/v1/connectors/{id}/webhooks': (o) => o.connectorId,
};

/** Routes outside any tenant: the operator's, and public ones. */
const NOT_TENANT_ROUTES = new Set(['/v1/tenants', '/health', '/metrics']);

interface Probe {
  method: string;
  path: string;
  body?: unknown;
  /** How this route refuses; by default a 400, 404 or 422. */
  refused?: (answer: { status: number; body: any }) => boolean;
}

/** Bodies and queries that name A's objects on routes without path parameters. */
const crossReferences = (o: TenantObjects): Probe[] => [
  { method: 'GET', path: `/v1/transactions?account=${o.accountId}` },
  { method: 'GET', path: `/v1/matches?statementLine=${o.lineId}` },
  { method: 'GET', path: `/v1/matches?transaction=${o.transactionId}` },
  {
    method: 'GET',
    path: `/v1/proofs/balances/assets:bank?proofId=${o.proofId}`,
    refused: (answer) => answer.status === 404,
  },
  { method: 'GET', path: `/v1/proofs/balances?proofId=${o.proofId}`, refused: (answer) => answer.status === 404 },
  {
    method: 'GET',
    path: `/v1/proofs/balances?since=${o.proofId}`,
    refused: (answer) => answer.status === 404 || answer.status === 400,
  },
  { method: 'POST', path: '/v1/transactions', body: transfer(o.accountId, 'assets:bank', '1') },
  // B's own accounts, so that A's quote is what is looked for (and not found, nor used).
  {
    method: 'POST',
    path: '/v1/conversions',
    body: {
      from: { account: 'assets:bank', amount: '100', currency: 'USD' },
      to: { account: 'assets:bank:eur', currency: 'EUR' },
      quoteId: o.quoteId,
    },
    refused: (answer) => answer.status === 404 && answer.body.error.details.fields?.[0]?.path === 'quoteId',
  },
  {
    method: 'POST',
    path: '/v1/conversions',
    body: {
      from: { account: o.accountId, amount: '100', currency: 'USD' },
      to: { account: 'assets:bank:eur', currency: 'EUR' },
      rate: '0.9',
    },
  },
  // A batch answers 201 with a result per item: the item that names A's account is refused.
  {
    method: 'POST',
    path: '/v1/transactions/batch',
    body: { transactions: [transfer(o.accountId, 'assets:bank', '1')] },
    refused: (answer) => answer.status === 201 && answer.body.results[0].error?.code === 'ACCOUNT_NOT_FOUND',
  },
  {
    method: 'POST',
    path: '/v1/matches',
    body: { statementLines: [o.lineId], entries: [{ transaction: o.transactionId }] },
  },
  // A valid body, so that the ticket itself is what B is refused (B has an assets:bank of its own).
  { method: 'POST', path: `/v1/discrepancies/${o.discrepancyId}/adjustments`, body: { counterAccount: 'assets:bank' } },
  { method: 'POST', path: '/v1/sources', body: { name: 'stolen', account: o.accountId, format: 'csv:bank' } },
  // With a valid body, so that the ticket is looked for: A's is not found.
  { method: 'POST', path: `/v1/discrepancies/${o.discrepancyId}/reopen`, body: { note: 'mine now' } },
  { method: 'POST', path: `/v1/discrepancies/${o.discrepancyId}/comments`, body: { note: 'mine now' } },
  // A bulk change answers 200 with a result per id: A's ticket is not found, and untouched (rowsOf).
  {
    method: 'POST',
    path: '/v1/discrepancies/bulk',
    body: { ids: [o.discrepancyId], owner: 'intruder' },
    refused: (answer) => answer.status === 200 && answer.body.results[0].outcome === 'not_found',
  },
];

/** A's rows, as a fingerprint of everything B could have changed. */
async function rowsOf(tenantId: string): Promise<string> {
  const tables = [
    'accounts',
    'transactions',
    'entries',
    'open_holds',
    'statement_imports',
    'statement_lines',
    'matches',
    'discrepancies',
    'discrepancy_events',
    'reconciliation_runs',
    'statement_sources',
    'owner_routes',
    'matching_rules',
    'api_keys',
    'outbox_events',
    'fx_quotes',
    'fx_conversions',
    'payment_connectors',
    'payment_orders',
    'payment_order_steps',
  ];
  const counts = await Promise.all(
    tables.map(async (table) => {
      const [row] = await sqlRows<{ digest: string }>(
        api,
        `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest
           FROM ${table} t WHERE tenant_id = $1`,
        [tenantId],
      );
      return `${table}:${row!.digest}`;
    }),
  );
  return counts.join('\n');
}

async function seedTenantA(tenant: TestTenant): Promise<TenantObjects> {
  const account = await createAccount(api, tenant.adminKey, {
    code: 'assets:bank',
    currency: 'USD',
    normalBalance: 'debit',
    allowNegative: true,
  });
  await createAccount(api, tenant.adminKey, {
    code: 'income:sales',
    currency: 'USD',
    normalBalance: 'credit',
    allowNegative: true,
  });
  const finance = await createApiKey(api, tenant.adminKey, ['finance']);
  const posted = await mustPost(
    api,
    tenant.posterKey,
    transfer('assets:bank', 'income:sales', '1000', 'USD', { externalRef: 'A-1' }),
  );
  const hold = await mustPost(api, tenant.posterKey, {
    ...transfer('assets:bank', 'income:sales', '50'),
    pending: { expiresAt: new Date(Date.now() + 3600_000).toISOString() },
  });
  await createSource(api, finance, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
  await routeOwner(api, finance, { priority: 1, owner: 'alice' });
  const imported = await uploadStatement(
    api,
    finance,
    'bank',
    'a.csv',
    bankCsv([
      `${statementDay(0)},${statementDay(0)},Invoice,10.00,USD,A-1,Acme`,
      `${statementDay(0)},${statementDay(0)},Unknown,99.00,USD,,X`,
    ]),
  );
  const run = await runReconciliation(api, finance);
  const webhook = await api.request('POST', '/v1/webhooks', {
    key: tenant.adminKey,
    idempotencyKey: randomUUID(),
    body: { url: 'https://93.184.216.34/hooks/ledger' },
  });
  expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
  const inbound = await api.request('POST', '/v1/inbound-sources', {
    key: tenant.adminKey,
    idempotencyKey: randomUUID(),
    body: { name: 'gateway', mappings: {} },
  });
  expect(inbound.status, JSON.stringify(inbound.body)).toBe(201);
  const proof = await api.request('POST', '/v1/proofs/balances', {
    key: tenant.adminKey,
    idempotencyKey: randomUUID(),
    body: {},
  });
  expect(proof.status, JSON.stringify(proof.body).slice(0, 300)).toBe(201);
  const [line] = await sqlRows<{ id: string }>(
    api,
    `SELECT id::text FROM statement_lines WHERE tenant_id = $1 AND refs->>'customerReference' = 'A-1'`,
    [tenant.tenantId],
  );
  const [match] = await sqlRows<{ id: string }>(
    api,
    'SELECT group_id::text AS id FROM matches WHERE tenant_id = $1 LIMIT 1',
    [tenant.tenantId],
  );
  const [apiKey] = await sqlRows<{ id: string }>(
    api,
    `SELECT id::text FROM api_keys WHERE tenant_id = $1 AND roles = '{finance}'`,
    [tenant.tenantId],
  );
  const [ownerRoute] = await sqlRows<{ id: string }>(api, 'SELECT id::text FROM owner_routes WHERE tenant_id = $1', [
    tenant.tenantId,
  ]);
  const [ticket] = await sqlRows<{ id: string }>(
    api,
    'SELECT id::text FROM discrepancies WHERE tenant_id = $1 LIMIT 1',
    [tenant.tenantId],
  );
  const quote = await api.request('POST', '/v1/conversions/quotes', {
    key: tenant.posterKey,
    idempotencyKey: randomUUID(),
    body: { from: { currency: 'USD' }, to: { currency: 'EUR' }, rate: '0.92', ttlSeconds: 3600 },
  });
  expect(quote.status, JSON.stringify(quote.body)).toBe(201);
  // A connector is not called until a worker takes an order (none runs here): the order stays reserved.
  const connector = await api.request('POST', '/v1/connectors', {
    key: tenant.adminKey,
    idempotencyKey: randomUUID(),
    body: {
      name: 'provider',
      kind: 'http',
      baseUrl: 'http://127.0.0.1:9',
      secret: 'provider-secret',
      webhookSecret: 'provider-webhook-secret',
      clearingAccount: 'assets:bank',
    },
  });
  expect(connector.status, JSON.stringify(connector.body)).toBe(201);
  const order = await api.request('POST', '/v1/payment-orders', {
    key: tenant.posterKey,
    idempotencyKey: randomUUID(),
    body: {
      connector: 'provider',
      direction: 'payout',
      sourceAccount: 'income:sales',
      amount: '10',
      currency: 'USD',
      counterparty: { name: 'A customer' },
    },
  });
  expect(order.status, JSON.stringify(order.body)).toBe(202);
  return {
    paymentOrderId: order.body.id,
    connectorId: connector.body.id,
    quoteId: quote.body.id,
    accountId: account.id,
    accountCode: 'assets:bank',
    transactionId: posted.id,
    holdId: hold.id,
    importId: imported.import?.id ?? imported.id,
    lineId: line!.id,
    discrepancyId: ticket!.id,
    matchId: match!.id,
    runId: run.id,
    webhookId: webhook.body.id,
    inboundSourceId: inbound.body.id,
    proofId: proof.body.id,
    apiKeyId: apiKey!.id,
    ownerRouteId: ownerRoute!.id,
  };
}

describe('tenant isolation on every route', () => {
  it("B, with every role, gets nothing of A's on any documented route and changes none of A's rows", async () => {
    const a = await seededTenant(api, 'tenant A');
    const objectsOfA = await seedTenantA(a);
    const b = await seededTenant(api, 'tenant B');
    await createAccount(api, b.adminKey, { code: 'assets:bank', currency: 'USD', normalBalance: 'debit' });
    await createAccount(api, b.adminKey, { code: 'assets:bank:eur', currency: 'EUR', normalBalance: 'debit' });
    const keyOfB = await createApiKey(api, b.adminKey, ['admin', 'poster', 'finance', 'auditor']);
    const idsOfA = Object.values(objectsOfA).filter((value) => value !== objectsOfA.accountCode);
    const before = await rowsOf(a.tenantId);

    const document = (await api.request('GET', '/docs-json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const probes: Probe[] = [];
    for (const [template, operations] of Object.entries(document.paths)) {
      if (NOT_TENANT_ROUTES.has(template) || template.startsWith('/docs')) continue;
      const hasParameters = template.includes('{');
      const target = ROUTE_TARGETS[template];
      expect(!hasParameters || target !== undefined, `route ${template} has no entry in ROUTE_TARGETS`).toBe(true);
      const values = hasParameters ? target!(objectsOfA) : '';
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) =>
        typeof values === 'string' ? values : values[name]!,
      );
      for (const method of Object.keys(operations))
        probes.push({ method: method.toUpperCase(), path, body: method === 'get' ? undefined : {} });
    }
    probes.push(...crossReferences(objectsOfA));
    expect(probes.length).toBeGreaterThan(30);

    for (const probe of probes) {
      const answer = await api.request(probe.method, probe.path, {
        key: keyOfB,
        body: probe.body,
        idempotencyKey: probe.method === 'GET' ? undefined : randomUUID(),
      });
      const text = JSON.stringify(answer.body ?? '');
      // An error may repeat what B sent ("account X not found"); anything else of A's is a leak.
      const sent = `${probe.path} ${JSON.stringify(probe.body ?? '')}`;
      for (const id of idsOfA.filter((candidate) => !sent.includes(candidate)))
        expect(text, `${probe.method} ${probe.path} showed ${id}`).not.toContain(id);
      expect(answer.status, `${probe.method} ${probe.path}: ${text.slice(0, 200)}`).toBeLessThan(500);
      // Naming A's object in the path, or writing with it, is refused; a GET filter on it finds nothing
      // (checked above).
      const namesObjectOfA = idsOfA.some(
        (id) => probe.path.split('?')[0]!.includes(id) || (probe.method !== 'GET' && sent.includes(id)),
      );
      const refused = probe.refused ?? ((refusal) => [400, 401, 404, 422].includes(refusal.status));
      if (namesObjectOfA || probe.refused)
        expect(refused(answer), `${probe.method} ${probe.path}: ${answer.status} ${text.slice(0, 200)}`).toBe(true);
    }
    expect(await rowsOf(a.tenantId)).toBe(before);
  });
});
