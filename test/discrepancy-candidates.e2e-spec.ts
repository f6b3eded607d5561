import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CANDIDATE_AMOUNT_BAND_BPS,
  CANDIDATE_NEARBY_MAX,
  CANDIDATE_SCAN_MAX,
  CANDIDATE_WINDOW_DAYS,
} from '../libs/reconciliation/src/matching/suggest-candidates.use-case';
import { SUGGEST_TRANSACTIONS } from '../libs/reconciliation/src/matching/suggestions.sql';
import { type ApiHarness, startApi } from './support/api-harness';
import { bankTenant as bankOf, deposit } from './support/bank-fixtures';
import {
  type TestTenant,
  createApiKey,
  expectError,
  expectValidationError,
  mustPost,
  sqlRows,
} from './support/ledger-fixtures';
import {
  bankCsv,
  listTickets,
  runReconciliation,
  statementDay,
  uploadStatement,
} from './support/reconciliation-fixtures';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

const bankTenant = (name: string) => bankOf(api, name);

const candidates = (key: string, id: string, query = '') =>
  api.request('GET', `/v1/discrepancies/${id}/candidates${query}`, { key });

describe('suggestions for a ticket about a statement line', () => {
  let tenant: TestTenant;
  let key: string;
  let ticket: any;
  const posted: Record<string, string> = {};

  beforeAll(async () => {
    ({ tenant, key } = await bankTenant('candidates'));
    // Matched by the run's reference rule to the second line: an exact amount on the same day, but taken.
    posted.taken = (await mustPost(api, tenant.posterKey, deposit('12000', { ref: 'INV-77', daysAgo: 1 }))).id;
    await uploadStatement(
      api,
      key,
      'bank',
      'statement.csv',
      bankCsv([
        `${statementDay(-1)},${statementDay(-1)},Invoice 42,120.00,USD,INV-42,Acme Corp`,
        `${statementDay(-1)},${statementDay(-1)},Invoice 77,120.00,USD,INV-77,Beta Ltd`,
      ]),
    );
    await runReconciliation(api, key);
    [ticket] = await listTickets(api, key, '&kind=missing_in_ledger');
    expect(ticket, 'the first line is missing in the ledger').toBeDefined();
    // Booked after the run: the exact one with the line's reference, a near one, and ones never offered.
    posted.exact = (
      await mustPost(
        api,
        tenant.posterKey,
        deposit('12000', { ref: 'INV-42', description: 'Invoice 42, Acme Corp', daysAgo: 1 }),
      )
    ).id;
    posted.near = (
      await mustPost(api, tenant.posterKey, deposit('11950', { description: 'Acme transfer', daysAgo: 2 }))
    ).id;
    posted.otherAccount = (
      await mustPost(
        api,
        tenant.posterKey,
        deposit('12000', { account: 'assets:other', description: 'INV-42 Acme', daysAgo: 1 }),
      )
    ).id;
    posted.tooOld = (await mustPost(api, tenant.posterKey, deposit('12000', { daysAgo: 20 }))).id;
    posted.farAmount = (await mustPost(api, tenant.posterKey, deposit('50000', { daysAgo: 1 }))).id;
  });

  it('ranks the exact amount with the same reference first, above a near amount, and explains both', async () => {
    const response = await candidates(key, ticket.id);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const data: any[] = response.body.data;
    expect(data.map((candidate) => candidate.transactionId)).toEqual([posted.exact, posted.near]);
    const [exact, near] = data;
    expect(exact).toMatchObject({
      externalRef: 'INV-42',
      amount: '12000',
      currency: 'USD',
      statementLines: ticket.evidence.statementLineId ? [ticket.evidence.statementLineId] : [],
      entries: [{ leg: 0, direction: 'debit', amount: '12000', currency: 'USD' }],
    });
    expect(exact.score).toBeGreaterThan(near.score);
    expect(exact.reasons.map((reason: any) => reason.code)).toEqual([
      'same_amount',
      'reference',
      'date_within_days',
      'counterparty_token',
    ]);
    expect(exact.reasons[1]).toMatchObject({ code: 'reference', detail: 'INV-42' });
    expect(exact.reasons[2]).toMatchObject({ detail: '0' });
    expect(near.reasons.map((reason: any) => reason.code)).toEqual([
      'near_amount',
      'date_within_days',
      'counterparty_token',
    ]);
    expect(near.reasons[0]).toMatchObject({ detail: '-50', text: '0.50 USD less than the statement' });
    expect(near.reasons[2]).toMatchObject({ detail: 'acme' });
    for (const reason of [...exact.reasons, ...near.reasons]) expect(reason.text.length).toBeGreaterThan(0);
  });

  it('never offers a matched entry, another account, a date outside the window or an amount far off', async () => {
    const offered = (await candidates(key, ticket.id, '?limit=50')).body.data.map((c: any) => c.transactionId);
    for (const id of [posted.taken, posted.otherAccount, posted.tooOld, posted.farAmount])
      expect(offered).not.toContain(id);
  });

  it('answers at most `limit`, and refuses a limit out of bounds naming the field', async () => {
    const one = await candidates(key, ticket.id, '?limit=1');
    expect(one.body.data.map((c: any) => c.transactionId)).toEqual([posted.exact]);
    for (const limit of ['0', '51', 'ten'])
      expectValidationError(await candidates(key, ticket.id, `?limit=${limit}`), 'limit');
  });

  it('is for readers of tickets; another tenant sees a 404', async () => {
    const auditor = await createApiKey(api, tenant.adminKey, ['auditor']);
    expect((await candidates(auditor, ticket.id)).status).toBe(200);
    expect((await candidates(tenant.adminKey, ticket.id)).status).toBe(200);
    expectError(await candidates(tenant.posterKey, ticket.id), 403, 'FORBIDDEN');
    const stranger = await bankTenant('candidates stranger');
    expectError(await candidates(stranger.key, ticket.id), 404, 'NOT_FOUND');
    expectError(await candidates(key, randomUUID()), 404, 'NOT_FOUND');
    expectError(await candidates(key, 'not-a-ticket'), 404, 'NOT_FOUND');
  });

  it('matching the first suggestion leaves none, resolves the ticket on the next run and opens nothing', async () => {
    const [first] = (await candidates(key, ticket.id)).body.data;
    const matched = await api.request('POST', '/v1/matches', {
      key,
      idempotencyKey: randomUUID(),
      body: {
        statementLines: first.statementLines,
        entries: first.entries.map((entry: any) => ({ transaction: first.transactionId, leg: entry.leg })),
        note: 'the first suggestion',
      },
    });
    expect(matched.status, JSON.stringify(matched.body)).toBe(201);
    expect((await candidates(key, ticket.id)).body.data).toEqual([]);
    const next = await runReconciliation(api, key);
    expect(next.stats).toMatchObject({ opened: 0, reopened: 0, resolved: 1 });
    const after = await api.request('GET', `/v1/discrepancies/${ticket.id}`, { key });
    expect(after.body.status).toBe('resolved');
    const working = await listTickets(api, key, '&status=open');
    expect(working.filter((open) => open.kind !== 'invariant_violation')).toEqual([]);
  });
});

describe('a ticket about a ledger entry', () => {
  it('has no suggestions (the answer is ledger transactions; its statement side is matched by hand)', async () => {
    const { tenant, key } = await bankTenant('candidates ledger side');
    await mustPost(api, tenant.posterKey, deposit('3300', { ref: 'NOT-SHOWN', daysAgo: 4 }));
    await uploadStatement(
      api,
      key,
      'bank',
      'statement.csv',
      bankCsv([
        `${statementDay(-6)},${statementDay(-6)},Opening,10.00,USD,,Acme`,
        `${statementDay(-1)},${statementDay(-1)},Later,20.00,USD,,Acme`,
      ]),
    );
    await runReconciliation(api, key);
    const [missing] = await listTickets(api, key, '&kind=missing_in_statement');
    expect(missing, 'the entry is missing in the statement').toBeDefined();
    const response = await candidates(key, missing.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [] });
  });
});

/** Every plan node of an EXPLAIN (FORMAT JSON) answer, depth first. */
function planNodes(node: any): any[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

describe('suggestions on an account with tens of thousands of entries', () => {
  const DEPOSITS = 20_000;
  const BATCH = 1_000;

  it('are one bounded statement that reads the entries through their indexes, never a scan of the table', async () => {
    const { tenant, key } = await bankTenant('candidates at scale');
    for (let first = 0; first < DEPOSITS; first += BATCH) {
      const transactions = Array.from({ length: BATCH }, (_, index) => {
        const n = first + index;
        return deposit(String(1_000 + ((n * 7919) % 500_000)), {
          ...(n % 10 === 0 ? { ref: `LOAD-${n}` } : {}),
          description: `load ${n}`,
          daysAgo: 1 + (n % 29),
        });
      });
      const batch = await api.request('POST', '/v1/transactions/batch', {
        key: tenant.posterKey,
        idempotencyKey: randomUUID(),
        body: { transactions },
      });
      expect(batch.status, JSON.stringify(batch.body).slice(0, 300)).toBe(201);
    }
    await uploadStatement(
      api,
      key,
      'bank',
      'statement.csv',
      bankCsv([`${statementDay(-3)},${statementDay(-3)},Unknown,1234.56,USD,LOAD-40,Acme`]),
    );
    await runReconciliation(api, key);
    const [ticket] = await listTickets(api, key, '&kind=amount_mismatch');
    expect(ticket, 'LOAD-40 has another amount').toBeDefined();
    await sqlRows(api, 'ANALYZE entries, transactions, statement_lines, matches');

    const response = await candidates(key, ticket.id, '?limit=50');
    expect(response.status).toBe(200);
    expect(response.body.data.length).toBeGreaterThan(1);
    expect(response.body.data.length).toBeLessThanOrEqual(50);
    const named = response.body.data.flatMap((candidate: any) => candidate.reasons);
    expect(named).toContainEqual(expect.objectContaining({ code: 'reference', detail: 'LOAD-40' }));

    const [source] = await sqlRows<{ id: string; account_id: string }>(
      api,
      'SELECT id, account_id FROM statement_sources WHERE tenant_id = $1',
      [tenant.tenantId],
    );
    const params: Record<string, unknown> = {
      tenantId: tenant.tenantId,
      sourceId: source!.id,
      accountId: source!.account_id,
      normalBalance: 'debit',
      lineIds: [ticket.evidence.statementLineId],
      windowDays: CANDIDATE_WINDOW_DAYS,
      bandBps: CANDIDATE_AMOUNT_BAND_BPS,
      nearbyMax: CANDIDATE_NEARBY_MAX,
      scanMax: CANDIDATE_SCAN_MAX,
      limit: 50,
    };
    const [explained] = await sqlRows<{ 'QUERY PLAN': any[] }>(
      api,
      `EXPLAIN (ANALYZE, FORMAT JSON) ${SUGGEST_TRANSACTIONS.text}`,
      SUGGEST_TRANSACTIONS.parameterNames.map((name) => params[name]),
    );
    const nodes = planNodes(explained!['QUERY PLAN'][0].Plan);
    const onEntries = nodes.filter((node) => node['Relation Name'] === 'entries');
    expect(onEntries.length).toBeGreaterThan(0);
    if (process.env.SHOW_PLAN) console.log(JSON.stringify(explained!['QUERY PLAN'][0], null, 1));
    for (const node of onEntries) expect(node['Node Type'], JSON.stringify(node).slice(0, 300)).not.toBe('Seq Scan');
    const entriesRead = onEntries.reduce(
      (sum, node) => sum + (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'],
      0,
    );
    expect(entriesRead, 'entries read: the nearest amounts, not the account').toBeLessThan(DEPOSITS / 10);
  }, 300_000);
});
