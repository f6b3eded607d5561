import { createHmac, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiContract, contractCaller } from './support/api-contract';
import { type ApiHarness, startApi } from './support/api-harness';
import type { Answer } from './support/http-json';
import { DAY_MS, createAccount, createApiKey, mustPost, seededTenant } from './support/ledger-fixtures';
import { bankCsv, executeQueuedRuns, statementDay } from './support/reconciliation-fixtures';

// Statements, reconciliation, tickets, matches, proofs, exports and the inbox driven for real, every
// answer checked against the committed OpenAPI document (see support/api-contract).

let api: ApiHarness;
let call: ReturnType<typeof contractCaller>;
const contract = new ApiContract();
const FIXTURES = resolve(__dirname, '..', 'fixtures', 'statements');

beforeAll(async () => {
  api = await startApi();
  call = contractCaller(api, contract);
});
afterAll(async () => {
  await api?.close();
});

const once = () => ({ idempotencyKey: randomUUID() });

/** A multipart upload as the console sends it, its answer checked like every other. */
async function upload(key: string, source: string | undefined, fileName: string, content: string): Promise<Answer> {
  const form = new FormData();
  form.set('file', new Blob([content]), fileName);
  if (source !== undefined) form.set('source', source);
  const response = await fetch(`${api.baseUrl}/v1/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'idempotency-key': randomUUID() },
    body: form,
  });
  const answer = { status: response.status, headers: response.headers, body: await response.json() };
  contract.check('POST', '/v1/imports', answer);
  return answer;
}

function deposit(amount: string, ref?: string) {
  return {
    ...(ref ? { externalRef: ref } : {}),
    effectiveAt: new Date(Date.now() - DAY_MS).toISOString(),
    entries: [
      { account: 'assets:bank', direction: 'debit', amount, currency: 'USD' },
      { account: 'income:sales', direction: 'credit', amount, currency: 'USD' },
    ],
  };
}

describe('reconciliation answers as its OpenAPI document says', () => {
  let finance: string;
  let reader: string;
  let posterKey: string;
  let importId: string;
  let lineId: string;

  beforeAll(async () => {
    const tenant = await seededTenant(api, 'contract reconciliation');
    posterKey = tenant.posterKey;
    for (const [code, normalBalance] of [
      ['assets:bank', 'debit'],
      ['income:sales', 'credit'],
    ] as const)
      await createAccount(api, tenant.adminKey, { code, currency: 'USD', normalBalance, allowNegative: true });
    finance = await createApiKey(api, tenant.adminKey, ['finance']);
    reader = await createApiKey(api, tenant.adminKey, ['auditor', 'admin']);
    await mustPost(api, posterKey, deposit('10000', 'INV-1'));
    await mustPost(api, posterKey, deposit('4200'));
  });

  it('sources, CSV profiles and imports', async () => {
    const body = { name: 'bank', account: 'assets:bank', format: 'csv:bank' };
    expect((await call('POST', '/v1/sources', { key: finance, ...once(), body })).status).toBe(201);
    const unknown = { name: 'other', account: 'assets:none' };
    expect((await call('POST', '/v1/sources', { key: finance, ...once(), body: unknown })).status).toBe(404);
    expect((await call('GET', '/v1/sources', { key: reader })).body.data).toHaveLength(1);
    const definition = JSON.parse(await readFile(resolve(FIXTURES, 'ok', 'custom-semicolon.profile.json'), 'utf8'));
    const profile = await call('POST', '/v1/csv-profiles', {
      key: finance,
      ...once(),
      body: { name: 'mine', definition },
    });
    expect(profile.body.format).toBe('csv:mine');
    const day = statementDay(-1);
    const csv = bankCsv([`${day},${day},Invoice 1,100.00,USD,INV-1,Acme`, `${day},${day},Unknown,9.99,USD,,Delta`]);
    const imported = await upload(finance, 'bank', 'statement.csv', csv);
    expect(imported.body.lines).toBe(2);
    importId = imported.body.id;
    expect((await upload(finance, 'bank', 'again.csv', csv)).headers.get('ledger-existing')).toBe('true');
    const bad = await readFile(resolve(FIXTURES, 'not-ok', 'bank-bad-rows.bank.csv'), 'utf8');
    expect((await upload(finance, 'bank', 'bad.csv', bad)).body.error.code).toBe('IMPORT_INVALID');
    expect((await upload(finance, 'nowhere', 'statement.csv', csv)).status).toBe(404);
    expect((await upload(finance, undefined, 'statement.csv', csv)).status).toBe(400);
    const path = { id: importId };
    expect((await call('GET', '/v1/imports/{id}', { key: reader, path })).body.fileSha256).toMatch(/^[0-9a-f]{64}$/);
    const lines = await call('GET', '/v1/imports/{id}/lines', { key: reader, path, query: { limit: '10' } });
    lineId = lines.body.data.find((line: { amount: string }) => line.amount === '999').id;
    expect((await call('GET', '/v1/statement-lines/{id}', { key: reader, path: { id: lineId } })).body.importId).toBe(
      importId,
    );
    expect((await call('GET', '/v1/imports/{id}', { key: reader, path: { id: randomUUID() } })).status).toBe(404);
    const listed = await call('GET', '/v1/imports', { key: reader, query: { source: 'bank', limit: '5' } });
    expect(listed.body.data.map((made: { id: string }) => made.id)).toEqual([importId]);
    expect((await call('GET', '/v1/imports', { key: reader, query: { source: 'nowhere' } })).status).toBe(404);
    const query = { source: 'bank', status: 'unmatched', limit: '1' };
    const unmatched = await call('GET', '/v1/statement-lines', { key: reader, query });
    expect(unmatched.body.data).toHaveLength(1);
    expect(unmatched.body.nextCursor).not.toBeNull();
    expect((await call('GET', '/v1/statement-lines', { key: reader, query: { status: 'unmatched' } })).status).toBe(
      400,
    );
  });

  it('rules, routes, runs, tickets and matches', async () => {
    const rules = await call('GET', '/v1/matching-rules', { key: reader });
    expect(rules.body.builtIn).toBe(true);
    const replaced = await call('PUT', '/v1/matching-rules', {
      key: finance,
      body: { rules: [{ type: 'reference' }, { type: 'amount_date', windowDays: 3, tolerancePercent: '0.5' }] },
    });
    expect(replaced.body.rules).toHaveLength(2);
    const route = { priority: 1, kind: 'missing_in_ledger', owner: 'treasury', minAmount: '100' };
    expect((await call('POST', '/v1/owner-routes', { key: finance, ...once(), body: route })).status).toBe(201);
    const run = await call('POST', '/v1/reconciliation/runs', { key: finance, ...once(), body: {} });
    expect(run.body.status).toBe('queued');
    const queued = await call('GET', '/v1/reconciliation/runs/{id}', { key: reader, path: { id: run.body.id } });
    expect(queued.body.progress.phase).toBe('queued');
    const refused = await call('POST', '/v1/reconciliation/runs', { key: finance, ...once(), body: {} });
    expect(refused.body.error.details.runId).toBe(run.body.id);
    await executeQueuedRuns(api);
    expect((await call('GET', '/v1/reconciliation/runs', { key: reader })).body.data).toHaveLength(1);
    const done = await call('GET', '/v1/reconciliation/runs/{id}', { key: reader, path: { id: run.body.id } });
    expect(done.body).toMatchObject({ status: 'completed', progress: { phase: 'finished', sourcesDone: 1 } });
    const notFound = await call('GET', '/v1/reconciliation/runs/{id}', { key: reader, path: { id: randomUUID() } });
    expect(notFound.status).toBe(404);
    const queue = await call('GET', '/v1/discrepancies', {
      key: reader,
      query: { status: 'open', kind: 'missing_in_ledger', overdue: 'false', limit: '50' },
    });
    const ticket = queue.body.data[0];
    expect(ticket.owner).toBe('treasury');
    expect((await call('GET', '/v1/discrepancies/counts', { key: reader })).body.total).toBeGreaterThan(0);
    const path = { id: ticket.id };
    expect((await call('GET', '/v1/discrepancies/{id}', { key: reader, path })).body.history.length).toBeGreaterThan(0);
    const acknowledged = await call('PATCH', '/v1/discrepancies/{id}', {
      key: finance,
      path,
      body: { status: 'acknowledged' },
    });
    expect(acknowledged.body.status).toBe('acknowledged');
    expect(
      (await call('PATCH', '/v1/discrepancies/{id}', { key: finance, path, body: { status: 'resolved' } })).status,
    ).toBe(400);
    expect((await call('GET', '/v1/discrepancies/{id}', { key: reader, path: { id: randomUUID() } })).status).toBe(404);
    const fee = await mustPost(api, posterKey, deposit('999'));
    const match = await call('POST', '/v1/matches', {
      key: finance,
      ...once(),
      body: { statementLines: [lineId], entries: [{ transaction: fee.id }], note: 'late booking' },
    });
    expect(match.body.rule).toBe('manual');
    const explained = await call('GET', '/v1/matches', { key: reader, query: { statementLine: lineId } });
    expect(explained.body.data.map((found: { id: string }) => found.id)).toContain(match.body.id);
    const undone = await call('PATCH', '/v1/matches/{id}', {
      key: finance,
      path: { id: match.body.id },
      body: { action: 'undo' },
    });
    expect(undone.body.undoneBy).not.toBeNull();
    const twice = await call('PATCH', '/v1/matches/{id}', {
      key: finance,
      path: { id: match.body.id },
      body: { action: 'undo' },
    });
    expect(twice.status).toBe(400);
    const missing = { statementLines: [randomUUID()], entries: [{ transaction: fee.id }] };
    expect((await call('POST', '/v1/matches', { key: finance, ...once(), body: missing })).status).toBe(404);
    // The acknowledged ticket, its line unmatched again, is fixed by booking it; a second booking is refused.
    const booking = { counterAccount: 'income:sales' };
    const adjusted = await call('POST', '/v1/discrepancies/{id}/adjustments', {
      key: finance,
      ...once(),
      path,
      body: booking,
    });
    expect(adjusted.status).toBe(201);
    expect(adjusted.body.ticket.status).toBe('resolved');
    const again = await call('POST', '/v1/discrepancies/{id}/adjustments', {
      key: finance,
      ...once(),
      path,
      body: booking,
    });
    expect(again.body.error.code).toBe('NOT_ADJUSTABLE');
  });

  it('proofs and exports', async () => {
    expect((await call('GET', '/v1/proofs/balances', { key: reader })).status).toBe(404);
    const issued = await call('POST', '/v1/proofs/balances', { key: reader, ...once(), body: {} });
    expect(issued.status).toBe(201);
    const reused = await call('POST', '/v1/proofs/balances', { key: reader, ...once(), body: {} });
    expect(reused.headers.get('ledger-existing')).toBe('true');
    const proof = await call('GET', '/v1/proofs/balances', { key: reader, query: { proofId: issued.body.id } });
    expect(proof.body.format).toBe('ledger-balance-proof/1');
    await mustPost(api, posterKey, deposit('1'));
    const next = await call('POST', '/v1/proofs/balances', { key: reader, ...once(), body: {} });
    expect(next.body.id).not.toBe(proof.body.id);
    const later = await call('GET', '/v1/proofs/balances', { key: reader, query: { since: proof.body.id } });
    expect(later.body.id).toBe(next.body.id);
    expect(later.body.consistency.previousId).toBe(proof.body.id);
    const account = { account: 'assets:bank' };
    const inclusion = await call('GET', '/v1/proofs/balances/{account}', { key: reader, path: account });
    expect(inclusion.body.account.code).toBe('assets:bank');
    const absent = await call('GET', '/v1/proofs/balances/{account}', { key: reader, path: { account: 'nope' } });
    expect(absent.status).toBe(404);
    expect((await call('GET', '/v1/exports/journal', { key: reader })).body).toContain('assets:bank');
    expect((await call('GET', '/v1/exports/journal', { key: reader, query: { format: 'csv' } })).status).toBe(200);
    expect((await call('GET', '/v1/exports/discrepancies', { key: reader })).status).toBe(200);
    expect((await call('GET', '/v1/exports/reconciliation-runs', { key: reader })).status).toBe(200);
    expect((await call('GET', '/v1/exports/journal', { key: finance })).status).toBe(403);
  });

  it('the inbox: inbound sources and signed messages', async () => {
    const entries = [
      { account: 'assets:bank', direction: 'debit', amount: '$.data.amount', currency: 'USD' },
      { account: 'income:sales', direction: 'credit', amount: '$.data.amount', currency: 'USD' },
    ];
    const body = { name: 'psp', mappings: { 'payment.succeeded': { externalRef: '$.data.payment', entries } } };
    const source = await call('POST', '/v1/inbound-sources', { key: reader, ...once(), body });
    expect((await call('GET', '/v1/inbound-sources', { key: reader })).body.data).toHaveLength(1);
    const message = JSON.stringify({
      id: 'evt_1',
      type: 'payment.succeeded',
      data: { payment: 'pay_1', amount: '700' },
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const hmac = createHmac('sha256', source.body.secret).update(`${timestamp}.${message}`).digest('hex');
    const signed = { body: message, path: { source: source.body.id } };
    const received = await call('POST', '/v1/inbound/{source}', {
      ...signed,
      headers: { 'ledger-signature': `t=${timestamp},v1=${hmac}` },
    });
    expect(received.body.status).toBe('posted');
    const forged = await call('POST', '/v1/inbound/{source}', {
      ...signed,
      headers: { 'ledger-signature': 't=1,v1=00' },
    });
    expect(forged.status).toBe(401);
    const nowhere = await call('POST', '/v1/inbound/{source}', { ...signed, path: { source: randomUUID() } });
    expect(nowhere.status).toBe(404);
  });
});
