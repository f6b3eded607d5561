import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  DAY_MS,
  type TestTenant,
  createAccount,
  createApiKey,
  expectError,
  expectNothingWritten,
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

// Fixing a ticket from the ticket: the statement line booked through the ledger's posting, matched by
// hand, the ticket resolved naming the transaction, all or nothing; and the next run finds nothing to open.

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

const ACCOUNTS = ['assets:bank', 'expenses:bank-fees', 'income:interest', 'income:sales', 'expenses:eur'];

function adjust(key: string, id: string, body: unknown, idempotencyKey: string = randomUUID()) {
  return api.request('POST', `/v1/discrepancies/${id}/adjustments`, { key, idempotencyKey, body });
}

/** Debits equal credits per currency. */
function zeroSum(entries: { direction: string; amount: string; currency: string }[]): boolean {
  const net = new Map<string, bigint>();
  for (const entry of entries)
    net.set(
      entry.currency,
      (net.get(entry.currency) ?? 0n) + BigInt(entry.amount) * (entry.direction === 'debit' ? 1n : -1n),
    );
  return [...net.values()].every((value) => value === 0n);
}

function legs(transaction: {
  entries: { accountCode: string; direction: string; amount: string; currency: string }[];
}) {
  return transaction.entries
    .map(({ accountCode, direction, amount, currency }) => ({ accountCode, direction, amount, currency }))
    .sort((a, b) => a.accountCode.localeCompare(b.accountCode));
}

describe('POST /v1/discrepancies/:id/adjustments', () => {
  let tenant: TestTenant;
  let finance: string;
  let tickets: any[];
  const ticketOf = (kind: string, reference?: string) => {
    const found = tickets.find(
      (ticket) =>
        ticket.kind === kind && (reference === undefined || JSON.stringify(ticket.evidence).includes(reference)),
    );
    expect(found, `a ${kind} ticket ${reference ?? ''}`).toBeDefined();
    return found;
  };

  beforeAll(async () => {
    tenant = await seededTenant(api, 'adjustments');
    const accounts = [
      ['assets:bank', 'USD', 'debit'],
      ['expenses:bank-fees', 'USD', 'debit'],
      ['income:interest', 'USD', 'credit'],
      ['income:sales', 'USD', 'credit'],
      ['expenses:eur', 'EUR', 'debit'],
    ] as const;
    for (const [code, currency, normalBalance] of accounts)
      await createAccount(api, tenant.adminKey, { code, currency, normalBalance, allowNegative: true });
    finance = await financeKey(api, tenant);
    await createSource(api, finance, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
    const deposit = (amount: string, daysAgo: number, externalRef?: string) => ({
      ...(externalRef ? { externalRef } : {}),
      effectiveAt: new Date(Date.now() - daysAgo * DAY_MS).toISOString(),
      entries: [
        { account: 'assets:bank', direction: 'debit', amount, currency: 'USD' },
        { account: 'income:sales', direction: 'credit', amount, currency: 'USD' },
      ],
    });
    await mustPost(api, tenant.posterKey, deposit('2000', 5, 'REF-5'));
    await mustPost(api, tenant.posterKey, deposit('10000', 1, 'INV-7'));
    // Covered by the statement's days, older than the grace period, not on it: missing_in_statement.
    await mustPost(api, tenant.posterKey, deposit('700', 3));
    await uploadStatement(
      api,
      finance,
      'bank',
      'statement.csv',
      bankCsv([
        `${statementDay(-5)},${statementDay(-5)},Transfer,20.00,USD,REF-5,Shop`,
        `${statementDay(-1)},${statementDay(-1)},Monthly account fee,-12.50,USD,FEE-2611,Bank`,
        `${statementDay(-1)},${statementDay(-1)},Interest,3.21,USD,INT-1,Bank`,
        `${statementDay(-1)},${statementDay(-1)},Customer payment,99.50,USD,INV-7,Customer`,
      ]),
    );
    await runReconciliation(api, finance);
    tickets = await listTickets(api, finance);
    expect(tickets.map((ticket) => ticket.kind).sort()).toEqual([
      'amount_mismatch',
      'missing_in_ledger',
      'missing_in_ledger',
      'missing_in_statement',
    ]);
  });

  it('books a missing line once, matches it, resolves the ticket, and the next run opens nothing for it', async () => {
    const ticket = ticketOf('missing_in_ledger', 'FEE-2611');
    const lineId = ticket.evidence.statementLineId as string;
    const key = randomUUID();
    const body = { counterAccount: 'expenses:bank-fees', description: 'monthly account fee' };
    const booked = await adjust(finance, ticket.id, body, key);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);

    const { transaction } = booked.body;
    expect(transaction).toMatchObject({
      status: 'posted',
      externalRef: 'FEE-2611',
      description: 'monthly account fee',
      effectiveAt: `${statementDay(-1)}T00:00:00.000Z`,
      metadata: { discrepancyId: ticket.id },
    });
    // Money out on the bank statement: the bank asset shrinks (credited), the fee expense is debited.
    expect(legs(transaction)).toEqual([
      { accountCode: 'assets:bank', direction: 'credit', amount: '1250', currency: 'USD' },
      { accountCode: 'expenses:bank-fees', direction: 'debit', amount: '1250', currency: 'USD' },
    ]);
    expect(zeroSum(transaction.entries)).toBe(true);
    const stored = await api.request('GET', `/v1/transactions/${transaction.id}`, { key: tenant.posterKey });
    expect(stored.status).toBe(200);
    expect(legs(stored.body)).toEqual(legs(transaction));

    expect(booked.body.ticket).toMatchObject({ id: ticket.id, status: 'resolved', version: ticket.version + 1 });
    expect(booked.body.ticket.resolvedAt).not.toBeNull();
    const event = booked.body.ticket.history.at(-1);
    expect(event).toMatchObject({
      action: 'resolved',
      changes: {
        status: { from: 'open', to: 'resolved' },
        transactionId: transaction.id,
        counterAccount: 'expenses:bank-fees',
      },
    });
    expect(event.note).toContain(transaction.id);
    const read = await api.request('GET', `/v1/discrepancies/${ticket.id}`, { key: finance });
    expect(read.body).toEqual(booked.body.ticket);

    const matches = await api.request('GET', `/v1/matches?statementLine=${lineId}`, { key: finance });
    expect(matches.status).toBe(200);
    expect(matches.body.data).toHaveLength(1);
    expect(matches.body.data[0]).toMatchObject({
      id: event.changes.matchId,
      rule: 'manual',
      statementLines: [{ id: lineId, amount: '-1250' }],
      entries: [{ transactionId: transaction.id, direction: 'credit', amount: '1250' }],
      undoneAt: null,
    });

    // The same request again (a retry after a timeout) answers the same booking and books nothing more.
    const again = await adjust(finance, ticket.id, body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.transaction.id).toBe(transaction.id);
    const booking = await sqlRows<{ n: number }>(
      api,
      `SELECT count(*)::int AS n FROM transactions WHERE tenant_id = $1 AND external_ref = 'FEE-2611'`,
      [tenant.tenantId],
    );
    expect(booking[0]!.n).toBe(1);
    // A new request for a resolved ticket books nothing either.
    expectError(await adjust(finance, ticket.id, body), 422, 'NOT_ADJUSTABLE');

    const audit = await sqlRows<{ actor: string }>(
      api,
      `SELECT actor FROM audit_log WHERE tenant_id = $1 AND action = 'discrepancy.adjust' AND target_id = $2`,
      [tenant.tenantId, ticket.id],
    );
    expect(audit).toHaveLength(1);

    const run = await runReconciliation(api, finance);
    expect(run.stats).toMatchObject({ opened: 0, reopened: 0 });
    const after = await listTickets(api, finance);
    expect(after.filter((each) => JSON.stringify(each.evidence).includes(lineId))).toEqual([
      expect.objectContaining({ id: ticket.id, status: 'resolved' }),
    ]);
  });

  it('books the difference of an amount mismatch and matches the line with both entries', async () => {
    const ticket = ticketOf('amount_mismatch', 'INV-7');
    const original = ticket.evidence.transactionId as string;
    const booked = await adjust(finance, ticket.id, { counterAccount: 'expenses:bank-fees' });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const { transaction } = booked.body;
    // The bank received 99.50 for a 100.00 sale: 0.50 out of the bank account, into fees.
    expect(legs(transaction)).toEqual([
      { accountCode: 'assets:bank', direction: 'credit', amount: '50', currency: 'USD' },
      { accountCode: 'expenses:bank-fees', direction: 'debit', amount: '50', currency: 'USD' },
    ]);
    expect(transaction.externalRef).toBeNull();
    expect(booked.body.ticket.status).toBe('resolved');
    expect(booked.body.ticket.history.at(-1).changes.transactionId).toBe(transaction.id);

    const lineId = ticket.evidence.statementLineId as string;
    const matches = await api.request('GET', `/v1/matches?statementLine=${lineId}`, { key: finance });
    expect(matches.body.data).toHaveLength(1);
    const matched = matches.body.data[0].entries.map((entry: any) => [entry.transactionId, entry.amount]);
    expect(matched.sort()).toEqual(
      [
        [original, '10000'],
        [transaction.id, '50'],
      ].sort(),
    );

    const run = await runReconciliation(api, finance);
    expect(run.stats).toMatchObject({ opened: 0, reopened: 0 });
    const still = (await listTickets(api, finance)).find((each) => each.id === ticket.id);
    expect(still.status).toBe('resolved');
  });

  it('refuses kinds that booking does not fix, with NOT_ADJUSTABLE, writing nothing', async () => {
    const ticket = ticketOf('missing_in_statement');
    const refused = await expectNothingWritten(api, tenant, ACCOUNTS, () =>
      adjust(finance, ticket.id, { counterAccount: 'expenses:bank-fees' }),
    );
    expectError(refused, 422, 'NOT_ADJUSTABLE');
    expect(refused.body.error.details).toMatchObject({ kind: 'missing_in_statement', status: 'open' });
    const read = await api.request('GET', `/v1/discrepancies/${ticket.id}`, { key: finance });
    expect(read.body).toMatchObject({ status: 'open', version: ticket.version });
  });

  it('validates the counter account and the body, writing nothing', async () => {
    const ticket = ticketOf('missing_in_ledger', 'INT-1');
    const lineId = ticket.evidence.statementLineId as string;
    const before = await api.request('GET', `/v1/discrepancies/${ticket.id}`, { key: finance });
    expect(before.body).toMatchObject({ status: 'open', history: [expect.objectContaining({ action: 'opened' })] });
    const refusals = await expectNothingWritten(api, tenant, ACCOUNTS, async () => [
      await adjust(finance, ticket.id, { counterAccount: 'expenses:none' }),
      await adjust(finance, ticket.id, { counterAccount: 'assets:bank' }),
      await adjust(finance, ticket.id, { counterAccount: 'expenses:eur' }),
      await adjust(finance, ticket.id, {}),
      await adjust(finance, ticket.id, { counterAccount: 'income:interest', effectiveAt: 'yesterday' }),
      await adjust(finance, ticket.id, { counterAccount: 'income:interest', extra: true }),
      await adjust(finance, ticket.id, {
        counterAccount: 'income:interest',
        effectiveAt: new Date(Date.now() - 400 * DAY_MS).toISOString(),
      }),
    ]);
    const [unknown, itself, currency, missing, badDate, extra, tooOld] = refusals;
    expectValidationError(unknown!, 'counterAccount');
    expectValidationError(itself!, 'counterAccount');
    expectError(currency!, 422, 'CURRENCY_MISMATCH');
    expect(currency!.body.error.details.fields).toEqual([{ path: 'counterAccount', message: 'must hold USD' }]);
    expectValidationError(missing!, 'counterAccount');
    expectValidationError(badDate!, 'effectiveAt');
    expectError(extra!, 400, 'VALIDATION_FAILED');
    expectValidationError(tooOld!, 'effectiveAt');
    expectError(
      await api.request('POST', `/v1/discrepancies/${ticket.id}/adjustments`, {
        key: finance,
        body: { counterAccount: 'income:interest' },
      }),
      400,
      'IDEMPOTENCY_KEY_MISSING',
    );

    const read = await api.request('GET', `/v1/discrepancies/${ticket.id}`, { key: finance });
    expect(read.body).toEqual(before.body);
    const matches = await api.request('GET', `/v1/matches?statementLine=${lineId}`, { key: finance });
    expect(matches.body.data).toEqual([]);
  });

  it('is for finance keys only, and another tenant cannot see the ticket', async () => {
    const ticket = ticketOf('missing_in_ledger', 'INT-1');
    const body = { counterAccount: 'income:interest' };
    const auditor = await createApiKey(api, tenant.adminKey, ['auditor']);
    await expectNothingWritten(api, tenant, ACCOUNTS, async () => {
      expectError(await adjust(tenant.posterKey, ticket.id, body), 403, 'FORBIDDEN');
      expectError(await adjust(auditor, ticket.id, body), 403, 'FORBIDDEN');
      expectError(await adjust(tenant.adminKey, ticket.id, body), 403, 'FORBIDDEN');
      const other = await seededTenant(api, 'not the owner');
      await createAccount(api, other.adminKey, {
        code: 'income:interest',
        currency: 'USD',
        normalBalance: 'credit',
      });
      expectError(await adjust(await financeKey(api, other), ticket.id, body), 404, 'NOT_FOUND');
      expectError(await adjust(finance, randomUUID(), body), 404, 'NOT_FOUND');
      expectError(await adjust(finance, 'not-a-ticket', body), 404, 'NOT_FOUND');
    });

    // Money in: the bank asset grows (debited), the interest income is credited.
    const booked = await adjust(finance, ticket.id, body);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(legs(booked.body.transaction)).toEqual([
      { accountCode: 'assets:bank', direction: 'debit', amount: '321', currency: 'USD' },
      { accountCode: 'income:interest', direction: 'credit', amount: '321', currency: 'USD' },
    ]);
    const bank = await api.request('GET', '/v1/accounts/assets:bank', { key: tenant.posterKey });
    // 20.00 + 100.00 + 7.00 deposited, -12.50 fee, -0.50 difference, +3.21 interest.
    expect(bank.body.balances.posted).toBe(String(2000 + 10000 + 700 - 1250 - 50 + 321));
  });
});

describe('booking the difference of a payout group', () => {
  it('books what the lines and entries of the group differ by, and matches them all with the new entry', async () => {
    const tenant = await seededTenant(api, 'group adjustment');
    for (const [code, normalBalance] of [
      ['assets:gateway:clearing', 'debit'],
      ['income:sales', 'credit'],
    ] as const)
      await createAccount(api, tenant.adminKey, { code, currency: 'USD', normalBalance, allowNegative: true });
    const finance = await financeKey(api, tenant);
    await createSource(api, finance, { name: 'gateway', account: 'assets:gateway:clearing', format: 'csv:gateway' });
    const sales = await mustPost(
      api,
      tenant.posterKey,
      transfer('assets:gateway:clearing', 'income:sales', '2999', 'USD', { externalRef: 'po_M' }),
    );
    const header = 'id,created,available_on,currency,gross,fee,net,reporting_category,source_id,payout_id,description';
    const rows = [1, 2].map(
      (n) =>
        `txn_${n},${statementDay(-2)} 09:00:00,${statementDay(-1)} 00:00:00,usd,${n}0.00,0.00,${n}0.00,charge,` +
        `ch_${n},po_M,Order ${n}`,
    );
    await uploadStatement(api, finance, 'gateway', 'gateway.csv', `${[header, ...rows].join('\n')}\n`);
    await runReconciliation(api, finance);
    const [ticket] = (await listTickets(api, finance, '&kind=amount_mismatch')) as any[];
    expect(ticket).toMatchObject({ amount: '1', evidence: { reference: 'po_M', statementLines: 2 } });

    const booked = await adjust(finance, ticket.id, { counterAccount: 'income:sales', description: 'rounding' });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(legs(booked.body.transaction)).toEqual([
      { accountCode: 'assets:gateway:clearing', direction: 'debit', amount: '1', currency: 'USD' },
      { accountCode: 'income:sales', direction: 'credit', amount: '1', currency: 'USD' },
    ]);
    expect(booked.body.ticket.status).toBe('resolved');
    const lineIds = ticket.evidence.statementLineIds as string[];
    const matches = (await api.request('GET', `/v1/matches?statementLine=${lineIds[0]}`, { key: finance })).body.data;
    expect(matches).toHaveLength(1);
    expect(matches[0].statementLines.map((line: any) => line.id).sort()).toEqual([...lineIds].sort());
    expect(matches[0].entries.map((entry: any) => entry.transactionId).sort()).toEqual(
      [sales.id, booked.body.transaction.id].sort(),
    );

    const run = await runReconciliation(api, finance);
    expect(run.stats).toMatchObject({ opened: 0, reopened: 0 });
    expect(
      (await listTickets(api, finance, '&status=open')).filter((each) => each.kind !== 'invariant_violation'),
    ).toEqual([]);
  });
});
