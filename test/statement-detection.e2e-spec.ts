import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { bankTenant, deposit } from './support/bank-fixtures';
import { type TestTenant, createAccount, mustPost, sqlRows } from './support/ledger-fixtures';
import {
  bankCsv,
  createSource,
  runReconciliation,
  statementDay,
  uploadStatement,
} from './support/reconciliation-fixtures';

// An import that names no format (nor its source) is read in the format its first bytes show; the references
// a structured MT940 :86: carries (EREF+ of the German layout, /EREF/ of the Dutch one) are matched like
// camt's EndToEndId.

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

const SOURCE = 'swift';
const yymmdd = (offset: number) => statementDay(offset).slice(2).replaceAll('-', '');

function mt940(reference: string, amount: string, information: string): string {
  const day = yymmdd(-1);
  return [
    `:20:${reference}`,
    ':25:DE89370400440532013000',
    ':28C:1/1',
    `:60F:C${day}USD0,00`,
    `:61:${day}C${amount}NTRFNONREF`,
    `:86:${information}`,
    `:62F:C${day}USD${amount}`,
    '-',
    '',
  ].join('\r\n');
}

/** The upload's answer, whatever its status. */
async function upload(key: string, fileName: string, content: string | Buffer) {
  const form = new FormData();
  form.set('file', new Blob([content]), fileName);
  form.set('source', SOURCE);
  const response = await fetch(`${api.baseUrl}/v1/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'idempotency-key': randomUUID() },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function importCount(tenant: TestTenant): Promise<string> {
  const rows = await sqlRows<{ n: string }>(
    api,
    'SELECT count(*)::text AS n FROM statement_imports WHERE tenant_id = $1',
    [tenant.tenantId],
  );
  return rows[0]!.n;
}

describe('an import without a format', () => {
  let tenant: TestTenant;
  let key: string;

  beforeAll(async () => {
    ({ tenant, key } = await bankTenant(api, 'detection'));
    const created = await api.request('POST', '/v1/sources', {
      key,
      idempotencyKey: randomUUID(),
      body: { name: SOURCE, account: 'assets:bank' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.format).toBeNull();
  });

  it('reads MT940 :86: references, and a run matches them to the ledger like an EndToEndId', async () => {
    await mustPost(api, tenant.posterKey, deposit('12345', { ref: 'E2E-GVC-4711' }));
    await mustPost(api, tenant.posterKey, deposit('6789', { ref: 'E2E-SLASH-88' }));
    const gvc = mt940(
      'GVC1',
      '123,45',
      '166?00GUTSCHRIFT?20EREF+E2E-GVC-4711 SVWZ+Invo?21ice 4711?31DE02100100109307118603?32Muster GmbH',
    );
    const slash = mt940(
      'SLASH1',
      '67,89',
      '/EREF/E2E-SLASH-88//CNTP/NL91ABNA0417164300/ABNANL2A/Supplier BV/X//REMI/USTD//Order 88/',
    );
    const imported = [
      await uploadStatement(api, key, SOURCE, 'gvc.sta', gvc),
      await uploadStatement(api, key, SOURCE, 'slash.sta', slash),
    ];
    expect(imported.map((each) => each.format)).toEqual(['mt940', 'mt940']);
    const lines = await Promise.all(
      imported.map(async (each) => (await api.request('GET', `/v1/imports/${each.id}/lines`, { key })).body.data[0]),
    );
    expect(lines[0]).toMatchObject({
      references: { endToEndId: 'E2E-GVC-4711' },
      typeCode: 'NTRF/166',
      counterparty: { name: 'Muster GmbH', account: 'DE02100100109307118603' },
      description: 'GUTSCHRIFT Invoice 4711',
    });
    expect(lines[1]).toMatchObject({
      references: { endToEndId: 'E2E-SLASH-88' },
      counterparty: { name: 'Supplier BV', bankCode: 'ABNANL2A' },
      description: 'Order 88',
    });
    const transactions = await sqlRows<{ external_ref: string }>(
      api,
      'SELECT external_ref FROM transactions WHERE tenant_id = $1 AND external_ref LIKE $2 ORDER BY external_ref',
      [tenant.tenantId, 'E2E-%'],
    );
    expect(transactions.map((row) => row.external_ref)).toEqual(['E2E-GVC-4711', 'E2E-SLASH-88']);

    const run = await runReconciliation(api, key);
    expect(run.stats.matched).toMatchObject({ reference: 2 });
    const matches = await sqlRows<{ evidence: Record<string, unknown> }>(
      api,
      `SELECT evidence FROM matches WHERE tenant_id = $1 AND rule = 'reference' ORDER BY evidence->>'reference'`,
      [tenant.tenantId],
    );
    expect(matches.map((match) => match.evidence)).toEqual([
      expect.objectContaining({ field: 'endToEndId', reference: 'E2E-GVC-4711' }),
      expect.objectContaining({ field: 'endToEndId', reference: 'E2E-SLASH-88' }),
    ]);
  });

  it('reads a bank CSV by its header row and says so', async () => {
    const csv = bankCsv([`${statementDay(-2)},${statementDay(-2)},Card fee,-1.50,USD,,Card Co`]);
    const answer = await uploadStatement(api, key, SOURCE, 'export.csv', csv);
    expect(answer).toMatchObject({ format: 'csv:bank', lines: 1 });
  });

  it('refuses a file of no format it knows, naming the formats tried; nothing is stored', async () => {
    const before = await importCount(tenant);
    const refused = await upload(key, 'notes.txt', 'Dear bank,\nplease send the statement.\n');
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('FORMAT_NOT_RECOGNISED');
    expect(refused.body.error.details.tried).toEqual([
      'camt053',
      'camt052',
      'camt054',
      'mt940',
      'mt942',
      'bai2',
      'csv:gateway',
      'csv:bank',
    ]);
    for (const format of ['camt053', 'mt940', 'bai2', 'csv:bank']) expect(refused.body.error.message).toContain(format);
    expect(await importCount(tenant)).toBe(before);
  });

  it('hands camt.052, camt.054 and MT942 files to their parsers: imported interim, as detected', async () => {
    await createAccount(api, tenant.adminKey, { code: 'assets:bank:eur', currency: 'EUR', normalBalance: 'debit' });
    for (const [file, format] of [
      ['camt052-v06-intraday.xml', 'camt052'],
      ['camt054-v08-notification.xml', 'camt054'],
      ['mt942-interim.sta', 'mt942'],
    ]) {
      const source = `eur-${format}`;
      await createSource(api, key, { name: source, account: 'assets:bank:eur' });
      const content = readFileSync(path.join(__dirname, '..', 'fixtures', 'statements', 'ok', file));
      const answer = await uploadStatement(api, key, source, file, content);
      expect(answer, file).toMatchObject({ format, interim: true });
      expect(answer.lines, file).toBeGreaterThan(0);
    }
  });
});
