import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { bankTenant, deposit } from './support/bank-fixtures';
import { type TestTenant, mustPost, sqlRows } from './support/ledger-fixtures';
import { bankCsv, runReconciliation, statementDay, uploadStatement } from './support/reconciliation-fixtures';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

const day = statementDay;

const uploadCsv = (key: string, rows: string[]) => uploadStatement(api, key, 'bank', 'statement.csv', bankCsv(rows));
const run = (key: string) => runReconciliation(api, key);

describe('matching a bank statement to the ledger', () => {
  let tenant: TestTenant;
  let key: string;

  beforeAll(async () => {
    ({ tenant, key } = await bankTenant(api, 'matching'));
    await mustPost(api, tenant.posterKey, deposit('10000', { ref: 'INV-1' }));
    await mustPost(api, tenant.posterKey, deposit('25000'));
    await mustPost(api, tenant.posterKey, deposit('5000', { ref: 'INV-3' }));
    await mustPost(api, tenant.posterKey, deposit('7500'));
    await mustPost(api, tenant.posterKey, deposit('7500'));
    await uploadCsv(key, [
      `${day(-1)},${day(-1)},Invoice 1,100.00,USD,INV-1,Acme`,
      `${day(0)},${day(0)},Card settlement,250.00,USD,,Gateway`,
      `${day(-1)},${day(-1)},Invoice 3,50.01,USD,INV-3,Beta`,
      `${day(-1)},${day(-1)},Transfer,75.00,USD,,Gamma`,
      `${day(-1)},${day(-1)},Unknown deposit,999.00,USD,,Delta`,
    ]);
  });

  it('matches by reference and by a unique amount and date, and tickets exactly what stays unexplained', async () => {
    const result = await run(key);
    expect(result.stats.matched).toEqual({ reference: 1, group: 0, amountDate: 1, reversal: 0 });
    const open = (await api.request('GET', '/v1/discrepancies?status=open&limit=200', { key })).body.data as any[];
    const external = open
      .filter((ticket) => ticket.kind !== 'invariant_violation')
      .map((ticket) => [ticket.kind, ticket.amount]);
    expect(external.sort()).toEqual([
      ['ambiguous_match', null],
      ['amount_mismatch', '1'],
      ['missing_in_ledger', '99900'],
    ]);
    const ambiguous = open.find((ticket) => ticket.kind === 'ambiguous_match');
    expect(ambiguous.evidence.candidateTransactionIds).toHaveLength(2);
    for (const ticket of open) expect(ticket).toMatchObject({ source: 'bank', accountCode: 'assets:bank' });
    const matches = await sqlRows<{ rule: string; evidence: Record<string, unknown> }>(
      api,
      'SELECT rule, evidence FROM matches WHERE tenant_id = $1 ORDER BY rule',
      [tenant.tenantId],
    );
    expect(matches.map((match) => match.rule)).toEqual(['amount_date', 'reference']);
    expect(matches[1]!.evidence).toMatchObject({ field: 'customerReference', reference: 'INV-1' });
  });

  it('a second run opens nothing new; posting the missing deposit matches it and resolves its ticket', async () => {
    const again = await run(key);
    expect(again.stats).toMatchObject({ opened: 0, reopened: 0, resolved: 0 });
    await mustPost(api, tenant.posterKey, deposit('99900'));
    const fixed = await run(key);
    expect(fixed.stats.matched.amountDate).toBe(1);
    expect(fixed.stats.resolved).toBe(1);
    const missing = (await api.request('GET', '/v1/discrepancies?kind=missing_in_ledger&limit=10', { key })).body.data;
    expect(missing.map((ticket: any) => ticket.status)).toEqual(['resolved']);
  });
});

describe('duplicates and entries missing from the statement', () => {
  it('tickets a line the bank reported twice, and a ledger entry its statements cover but do not show', async () => {
    const { tenant, key } = await bankTenant(api, 'duplicates');
    await mustPost(api, tenant.posterKey, deposit('1200', { ref: 'DUP-1', daysAgo: 5 }));
    const notOnStatement = await mustPost(api, tenant.posterKey, deposit('3300', { ref: 'NOT-SHOWN', daysAgo: 4 }));
    await uploadCsv(key, [
      `${day(-5)},${day(-5)},Invoice D,12.00,USD,DUP-1,Acme`,
      `${day(-5)},${day(-5)},Invoice D,12.00,USD,DUP-1,Acme`,
      `${day(-3)},${day(-3)},Other,1.00,USD,,Someone`,
    ]);
    await run(key);
    const open = (await api.request('GET', '/v1/discrepancies?status=open&limit=200', { key })).body.data as any[];
    const byKind = (kind: string) => open.filter((ticket) => ticket.kind === kind);
    expect(byKind('duplicate')).toHaveLength(1);
    expect(byKind('duplicate')[0]).toMatchObject({ amount: '1200', currency: 'USD' });
    expect(byKind('missing_in_statement').map((ticket) => ticket.evidence.transactionId)).toEqual([notOnStatement.id]);
    expect(byKind('missing_in_ledger').map((ticket) => ticket.amount)).toEqual(['100']);
  });
});

describe('one ticket for one difference', () => {
  it('a line naming a ledger entry of another amount is a mismatch, and that entry is not also missing', async () => {
    const { tenant, key } = await bankTenant(api, 'mismatch once');
    const named = await mustPost(api, tenant.posterKey, deposit('35000', { ref: 'MIS-1', daysAgo: 4 }));
    const notOnStatement = await mustPost(api, tenant.posterKey, deposit('3300', { ref: 'NOT-SHOWN', daysAgo: 4 }));
    await uploadCsv(key, [
      `${day(-5)},${day(-5)},Opening,1.00,USD,,Someone`,
      `${day(-4)},${day(-4)},Invoice M,345.00,USD,MIS-1,Acme`,
      `${day(-3)},${day(-3)},Other,2.00,USD,,Someone`,
    ]);
    await run(key);
    const open = (await api.request('GET', '/v1/discrepancies?status=open&limit=200', { key })).body.data as any[];
    const byKind = (kind: string) => open.filter((ticket) => ticket.kind === kind);
    expect(byKind('amount_mismatch').map((ticket) => [ticket.evidence.transactionId, ticket.amount])).toEqual([
      [named.id, '-500'],
    ]);
    expect(byKind('missing_in_statement').map((ticket) => ticket.evidence.transactionId)).toEqual([notOnStatement.id]);
  });
});

describe('a person explains, undoes and makes matches', () => {
  it('shows why a line matched, undoes it for good, and matches it by hand instead', async () => {
    const { tenant, key } = await bankTenant(api, 'manual matching');
    const wrong = await mustPost(api, tenant.posterKey, deposit('4200', { daysAgo: 1 }));
    const right = await mustPost(api, tenant.posterKey, deposit('4100', { ref: 'MAN-1', daysAgo: 1 }));
    await uploadCsv(key, [`${day(-1)},${day(-1)},Transfer,42.00,USD,,Someone`]);
    await run(key);
    const [line] = await sqlRows<{ id: string }>(api, 'SELECT id::text FROM statement_lines WHERE tenant_id = $1', [
      tenant.tenantId,
    ]);
    const explained = (await api.request('GET', `/v1/matches?statementLine=${line!.id}`, { key })).body.data;
    expect(explained).toHaveLength(1);
    expect(explained[0]).toMatchObject({
      rule: 'amount_date',
      entries: [{ transactionId: wrong.id, amount: '4200' }],
      statementLines: [{ amount: '4200' }],
    });

    const undone = await api.request('PATCH', `/v1/matches/${explained[0].id}`, {
      key,
      body: { action: 'undo', note: 'the customer paid invoice MAN-1 less a fee' },
    });
    expect(undone.body).toMatchObject({
      undoneBy: expect.stringMatching(/^api-key:/),
      note: 'the customer paid invoice MAN-1 less a fee',
    });
    await run(key);
    // The undone pair is not proposed again: the line is now missing in the ledger.
    expect((await api.request('GET', `/v1/matches?statementLine=${line!.id}`, { key })).body.data).toHaveLength(1);
    const missing = (await api.request('GET', '/v1/discrepancies?kind=missing_in_ledger&status=open', { key })).body
      .data;
    expect(missing.map((ticket: any) => ticket.evidence.statementLineId)).toEqual([line!.id]);

    const manual = await api.request('POST', '/v1/matches', {
      key,
      idempotencyKey: randomUUID(),
      body: { statementLines: [line!.id], entries: [{ transaction: right.id }], note: 'invoice MAN-1 less a fee' },
    });
    expect(manual.status, JSON.stringify(manual.body)).toBe(201);
    expect(manual.body).toMatchObject({ rule: 'manual', entries: [{ transactionId: right.id, amount: '4100' }] });
    const again = await api.request('POST', '/v1/matches', {
      key,
      idempotencyKey: randomUUID(),
      body: { statementLines: [line!.id], entries: [{ transaction: wrong.id }] },
    });
    expect(again.status).toBe(400);
    await run(key);
    expect(
      (await api.request('GET', '/v1/discrepancies?kind=missing_in_ledger&status=open', { key })).body.data,
    ).toEqual([]);
    const confirmed = await api.request('PATCH', `/v1/matches/${manual.body.id}`, {
      key,
      body: { action: 'confirm', note: 'checked against the remittance advice' },
    });
    expect(confirmed.body.confirmedBy).toMatch(/^api-key:/);
    // Notes are appended: the one given when the match was made is still there, with who gave it.
    const actor = expect.stringMatching(/^api-key:/);
    expect(confirmed.body.note).toBe('checked against the remittance advice');
    expect(confirmed.body.history).toEqual([
      { at: expect.any(String), actor, action: 'created', note: 'invoice MAN-1 less a fee' },
      { at: expect.any(String), actor, action: 'confirmed', note: 'checked against the remittance advice' },
    ]);
    const undoneHistory = (await api.request('GET', `/v1/matches?statementLine=${line!.id}`, { key })).body.data[0];
    expect(undoneHistory.history).toEqual([
      { at: expect.any(String), actor, action: 'undone', note: 'the customer paid invoice MAN-1 less a fee' },
    ]);
  });

  it('the database refuses a match whose line or entry does not exist, written or edited with SQL', async () => {
    const { tenant, key } = await bankTenant(api, 'dangling matches');
    const posted = await mustPost(api, tenant.posterKey, deposit('4300', { ref: 'REAL-1' }));
    await uploadCsv(key, [`${day(-1)},${day(-1)},Invoice,43.00,USD,REAL-1,Acme`]);
    await run(key);
    const [match] = await sqlRows<{ id: string; statement_line_id: string }>(
      api,
      'SELECT id::text, statement_line_id::text FROM matches WHERE tenant_id = $1',
      [tenant.tenantId],
    );
    const sqlState = (text: string, params: unknown[]) =>
      sqlRows(api, text, params).then(
        () => 'ok',
        (error: { code?: string }) => error.code,
      );
    const insert = `INSERT INTO matches (tenant_id, id, group_id, statement_line_id, transaction_id, leg, rule,
                                         undone_at, undone_by)
                    VALUES ($1, $2, $2, $3, $4, 0, 'manual', now(), 'test')`;
    expect(await sqlState(insert, [tenant.tenantId, randomUUID(), randomUUID(), posted.id])).toBe('23503');
    expect(await sqlState(insert, [tenant.tenantId, randomUUID(), match!.statement_line_id, randomUUID()])).toBe(
      '23503',
    );
    expect(
      await sqlState('UPDATE matches SET leg = 7 WHERE tenant_id = $1 AND id = $2', [tenant.tenantId, match!.id]),
    ).toBe('23503');
    expect(await sqlState(insert, [tenant.tenantId, randomUUID(), match!.statement_line_id, posted.id])).toBe('ok');
  });
});
