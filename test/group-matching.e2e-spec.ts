import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  DAY_MS,
  type TestTenant,
  createAccount,
  expectValidationError,
  mustPost,
  seededTenant,
  sqlRows,
  transfer,
} from './support/ledger-fixtures';
import {
  bankCsv,
  createSource,
  financeKey,
  listTickets,
  runReconciliation,
  statementDay,
  uploadStatement,
} from './support/reconciliation-fixtures';

// Matching beyond one line to one entry: groups keyed by a shared reference (one-to-many,
// many-to-one, many-to-many), ambiguity between groups, tolerances, and a person's hand on groups.

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

const day = statementDay;
const GATEWAY_HEADER =
  'id,created,available_on,currency,gross,fee,net,reporting_category,source_id,payout_id,description';

async function tenantWith(
  name: string,
  accounts: [string, 'debit' | 'credit'][],
): Promise<{ tenant: TestTenant; key: string }> {
  const tenant = await seededTenant(api, name);
  for (const [code, normalBalance] of accounts)
    await createAccount(api, tenant.adminKey, { code, currency: 'USD', normalBalance, allowNegative: true });
  return { tenant, key: await financeKey(api, tenant) };
}

const uploadGateway = (key: string, rows: string[]) =>
  uploadStatement(api, key, 'gateway', 'gateway.csv', `${[GATEWAY_HEADER, ...rows].join('\n')}\n`);

async function putRules(key: string, rules: unknown[]) {
  return api.request('PUT', '/v1/matching-rules', { key, body: { rules } });
}

async function matchesOf(key: string, query: string): Promise<any[]> {
  return (await api.request('GET', `/v1/matches?${query}`, { key })).body.data;
}

describe('matching rules', () => {
  it('are built in until a tenant sets its own; bad rules refused whole; an empty list restores them', async () => {
    const { tenant, key } = await tenantWith('rules', []);
    const builtIn = (await api.request('GET', '/v1/matching-rules', { key })).body;
    expect(builtIn.builtIn).toBe(true);
    expect(builtIn.rules.map((rule: any) => rule.type)).toEqual(['reference', 'group', 'amount_date', 'reversal']);

    expectValidationError(await putRules(key, [{ type: 'group', metadataKey: 'payoutId' }]), 'rules.0.lineReference');
    expectValidationError(
      await putRules(key, [{ type: 'reference' }, { type: 'amount_date', windowDays: 3, tolerancePercent: '0.125' }]),
      'rules.1.tolerancePercent',
    );
    expectValidationError(await putRules(key, [{ type: 'amount_date', windowDays: 40 }]), 'rules.0.windowDays');
    expectValidationError(
      await putRules(
        key,
        Array.from({ length: 51 }, () => ({ type: 'reference' })),
      ),
      'rules',
    );
    expect((await api.request('GET', '/v1/matching-rules', { key })).body.builtIn).toBe(true);

    const set = await putRules(key, [
      { type: 'reference', toleranceAmount: '5' },
      { type: 'amount_date', windowDays: 2, tolerancePercent: '1.5', source: 'bank' },
    ]);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ builtIn: false, updatedBy: expect.stringMatching(/^api-key:/) });
    expect(set.body.rules).toEqual([
      {
        position: 1,
        type: 'reference',
        source: null,
        toleranceAmount: '5',
        tolerancePercent: '0',
        windowDays: 0,
        lineReference: null,
        metadataKey: null,
      },
      {
        position: 2,
        type: 'amount_date',
        source: 'bank',
        toleranceAmount: '0',
        tolerancePercent: '1.5',
        windowDays: 2,
        lineReference: null,
        metadataKey: null,
      },
    ]);
    const poster = await api.request('PUT', '/v1/matching-rules', { key: tenant.posterKey, body: { rules: [] } });
    expect(poster.status).toBe(403);
    expect((await putRules(key, [])).body.builtIn).toBe(true);
  });
});

describe('groups', () => {
  it('many-to-many: payout lines net of fees against the sales and fee entries, each entry in one group', async () => {
    const { tenant, key } = await tenantWith('n to m', [
      ['assets:gateway:clearing', 'debit'],
      ['income:sales', 'credit'],
      ['expenses:fees', 'debit'],
    ]);
    await createSource(api, key, { name: 'gateway', account: 'assets:gateway:clearing', format: 'csv:gateway' });
    // The ledger books payout po_Z's sales at gross and its fees apart, both tagged with the payout.
    const sales = await mustPost(
      api,
      tenant.posterKey,
      transfer('assets:gateway:clearing', 'income:sales', '35000', 'USD', { metadata: { payoutId: 'po_Z' } }),
    );
    const fees = await mustPost(
      api,
      tenant.posterKey,
      transfer('expenses:fees', 'assets:gateway:clearing', '1045', 'USD', { metadata: { payoutId: 'po_Z' } }),
    );
    const rows = [
      `txn_1,${day(-2)} 09:00:00,${day(-1)} 00:00:00,usd,100.00,3.20,96.80,charge,ch_1,po_Z,Order 1`,
      `txn_2,${day(-2)} 10:00:00,${day(-1)} 00:00:00,usd,200.00,6.10,193.90,charge,ch_2,po_Z,Order 2`,
      `txn_3,${day(-2)} 11:00:00,${day(-1)} 00:00:00,usd,50.00,1.15,48.85,charge,ch_3,po_Z,Order 3`,
    ];
    await uploadGateway(key, rows);
    const run = await runReconciliation(api, key);
    expect(run.stats.matched).toEqual({ reference: 0, group: 3, amountDate: 0, reversal: 0 });
    const [match] = await matchesOf(key, `transaction=${fees.id}`);
    expect(match).toMatchObject({
      rule: 'group',
      evidence: { reference: 'po_Z', lines: 3, entries: 2, amount: '33955', ledgerAmount: '33955' },
    });
    expect(match.statementLines.map((line: any) => line.amount).sort()).toEqual(['19390', '4885', '9680']);
    expect(match.entries.map((entry: any) => [entry.transactionId, entry.direction, entry.amount]).sort()).toEqual(
      [
        [sales.id, 'debit', '35000'],
        [fees.id, 'credit', '1045'],
      ].sort(),
    );
    expect(
      (await listTickets(api, key, '&status=open')).filter((ticket) => ticket.kind !== 'invariant_violation'),
    ).toEqual([]);
  });

  it('one-to-many: a bank deposit against the postings tagged with its payout, by a rule for the bank', async () => {
    const { tenant, key } = await tenantWith('1 to n', [
      ['assets:bank', 'debit'],
      ['assets:gateway:clearing', 'debit'],
    ]);
    await createSource(api, key, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
    const settle = await putRules(key, [
      { type: 'reference' },
      { type: 'group', source: 'bank', lineReference: 'customerReference', metadataKey: 'payoutId' },
    ]);
    expect(settle.status).toBe(200);
    const parts = [];
    for (const amount of ['10000', '20000', '30000']) {
      parts.push(
        await mustPost(
          api,
          tenant.posterKey,
          transfer('assets:bank', 'assets:gateway:clearing', amount, 'USD', {
            metadata: { payoutId: 'po_Y', store: amount },
          }),
        ),
      );
    }
    await uploadStatement(
      api,
      key,
      'bank',
      'bank.csv',
      bankCsv([`${day(-1)},${day(-1)},GATEWAY PAYOUT,600.00,USD,po_Y,Gateway`]),
    );
    const run = await runReconciliation(api, key);
    expect(run.stats.matched).toMatchObject({ group: 1 });
    const [match] = await matchesOf(key, `transaction=${parts[1]!.id}`);
    expect(match.statementLines).toHaveLength(1);
    expect(match.entries.map((entry: any) => entry.transactionId).sort()).toEqual(parts.map((part) => part.id).sort());

    // A person undoes the group: it is not proposed again, and its line is now missing in the ledger.
    const undone = await api.request('PATCH', `/v1/matches/${match.id}`, {
      key,
      body: { action: 'undo', note: 'store 30000 was refunded before the payout' },
    });
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    await runReconciliation(api, key);
    expect((await listTickets(api, key, '&status=open&kind=missing_in_ledger')).map((ticket) => ticket.amount)).toEqual(
      ['60000'],
    );
    expect(await matchesOf(key, `statementLine=${match.statementLines[0].id}`)).toHaveLength(1);

    // And matches the line by hand to two of the postings; the ticket goes on the next run.
    const manual = await api.request('POST', '/v1/matches', {
      key,
      idempotencyKey: randomUUID(),
      body: {
        statementLines: [match.statementLines[0].id],
        entries: [{ transaction: parts[0]!.id }, { transaction: parts[2]!.id }],
        note: 'settles stores 1 and 3',
      },
    });
    expect(manual.status, JSON.stringify(manual.body)).toBe(201);
    expect(manual.body).toMatchObject({
      rule: 'manual',
      note: 'settles stores 1 and 3',
      statementLines: [{ amount: '60000' }],
    });
    expect(manual.body.entries).toHaveLength(2);
    const twice = await api.request('POST', '/v1/matches', {
      key,
      idempotencyKey: randomUUID(),
      body: { statementLines: [match.statementLines[0].id], entries: [{ transaction: parts[1]!.id }] },
    });
    expect(twice.status).toBe(400);
    const fixed = await runReconciliation(api, key);
    expect(fixed.stats.resolved).toBe(1);
  });

  it('an entry that two groups claim makes both ambiguous: nothing is matched and a person chooses', async () => {
    const { tenant, key } = await tenantWith('ambiguous groups', [
      ['assets:gateway:clearing', 'debit'],
      ['income:sales', 'credit'],
    ]);
    await createSource(api, key, { name: 'gateway', account: 'assets:gateway:clearing', format: 'csv:gateway' });
    // Groups only: amount and date would otherwise pair the single po_Q line with the entry.
    await putRules(key, [{ type: 'group', lineReference: 'payoutId', metadataKey: 'payoutId' }]);
    await mustPost(
      api,
      tenant.posterKey,
      transfer('assets:gateway:clearing', 'income:sales', '3000', 'USD', {
        externalRef: 'po_P',
        metadata: { payoutId: 'po_Q' },
      }),
    );
    const rows = [
      `txn_1,${day(-2)} 09:00:00,${day(-1)} 00:00:00,usd,10.00,0.00,10.00,charge,ch_1,po_P,Order 1`,
      `txn_2,${day(-2)} 10:00:00,${day(-1)} 00:00:00,usd,20.00,0.00,20.00,charge,ch_2,po_P,Order 2`,
      `txn_3,${day(-2)} 11:00:00,${day(-1)} 00:00:00,usd,30.00,0.00,30.00,charge,ch_3,po_Q,Order 3`,
    ];
    await uploadGateway(key, rows);
    const run = await runReconciliation(api, key);
    expect(run.stats.matched).toEqual({ reference: 0, group: 0, amountDate: 0, reversal: 0 });
    const open = (await listTickets(api, key, '&status=open')).filter(
      (ticket) => ticket.kind !== 'invariant_violation',
    );
    expect(
      open.map((ticket) => [ticket.kind, ticket.evidence.reference, ticket.evidence.statementLines]).sort(),
    ).toEqual([
      ['ambiguous_match', 'po_P', 2],
      ['ambiguous_match', 'po_Q', 1],
    ]);
  });

  it('a group whose sums differ is one ticket for the group, not one per line', async () => {
    const { tenant, key } = await tenantWith('group mismatch', [
      ['assets:gateway:clearing', 'debit'],
      ['income:sales', 'credit'],
    ]);
    await createSource(api, key, { name: 'gateway', account: 'assets:gateway:clearing', format: 'csv:gateway' });
    await mustPost(
      api,
      tenant.posterKey,
      transfer('assets:gateway:clearing', 'income:sales', '2999', 'USD', { externalRef: 'po_M' }),
    );
    const rows = [
      `txn_1,${day(-2)} 09:00:00,${day(-1)} 00:00:00,usd,10.00,0.00,10.00,charge,ch_1,po_M,Order 1`,
      `txn_2,${day(-2)} 10:00:00,${day(-1)} 00:00:00,usd,20.00,0.00,20.00,charge,ch_2,po_M,Order 2`,
    ];
    await uploadGateway(key, rows);
    await runReconciliation(api, key);
    const open = (await listTickets(api, key, '&status=open')).filter(
      (ticket) => ticket.kind !== 'invariant_violation',
    );
    expect(open.map((ticket) => [ticket.kind, ticket.amount, ticket.evidence.reference])).toEqual([
      ['amount_mismatch', '1', 'po_M'],
    ]);
  });
});

describe('tolerances', () => {
  it('record a difference within the rule (absolute by reference, % by amount, date); beyond: a ticket', async () => {
    const { tenant, key } = await tenantWith('tolerance', [
      ['assets:bank', 'debit'],
      ['income:sales', 'credit'],
    ]);
    await createSource(api, key, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
    expect(
      (
        await putRules(key, [
          { type: 'reference', toleranceAmount: '5' },
          { type: 'amount_date', windowDays: 2, tolerancePercent: '1' },
        ])
      ).status,
    ).toBe(200);
    const yesterday = new Date(Date.now() - DAY_MS).toISOString();
    await mustPost(
      api,
      tenant.posterKey,
      transfer('assets:bank', 'income:sales', '10000', 'USD', { externalRef: 'INV-T' }),
    );
    await mustPost(
      api,
      tenant.posterKey,
      transfer('assets:bank', 'income:sales', '20000', 'USD', { effectiveAt: yesterday }),
    );
    await mustPost(
      api,
      tenant.posterKey,
      transfer('assets:bank', 'income:sales', '14000', 'USD', { effectiveAt: yesterday }),
    );
    await uploadStatement(
      api,
      key,
      'bank',
      'bank.csv',
      bankCsv([
        `${day(0)},${day(0)},Invoice T,100.03,USD,INV-T,Acme`,
        `${day(-1)},${day(-1)},Card settlement less fees,199.00,USD,,Gateway`,
        `${day(-1)},${day(-1)},Far off,150.00,USD,,Someone`,
      ]),
    );
    const run = await runReconciliation(api, key);
    expect(run.stats.matched).toMatchObject({ reference: 1, amountDate: 1 });
    const open = (await listTickets(api, key, '&status=open')).filter(
      (ticket) => ticket.kind !== 'invariant_violation',
    );
    expect(open.map((ticket) => [ticket.kind, ticket.amount])).toEqual([['missing_in_ledger', '15000']]);
    const [line] = await sqlRows<{ id: string }>(
      api,
      `SELECT id::text FROM statement_lines WHERE tenant_id = $1 AND refs->>'customerReference' = 'INV-T'`,
      [tenant.tenantId],
    );
    const [match] = await matchesOf(key, `statementLine=${line!.id}`);
    expect(match).toMatchObject({
      rule: 'reference',
      evidence: { amount: '10003', ledgerAmount: '10000', toleranceAmount: '5' },
    });
  });
});
