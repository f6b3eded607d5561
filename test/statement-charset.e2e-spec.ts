import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, type ApiResponse, startApi } from './support/api-harness';
import { type TestTenant, createAccount, createApiKey, setupTenant } from './support/ledger-fixtures';

// A source's charset: what its files are written in when they are not UTF-8. UTF-8 (with or without BOM) is
// recognised first; the import says which charset it read the file in; the hash is of the bytes received.

const OK = resolve(__dirname, '..', 'fixtures', 'statements', 'ok');

let api: ApiHarness;
let tenant: TestTenant;
let financeKey: string;
let auditorKey: string;

beforeAll(async () => {
  api = await startApi();
  tenant = await setupTenant(api, 'statement charset');
  financeKey = await createApiKey(api, tenant.adminKey, ['finance']);
  auditorKey = await createApiKey(api, tenant.adminKey, ['auditor']);
  for (const [code, currency] of [
    ['assets:bank:eur', 'EUR'],
    ['assets:bank:pln', 'PLN'],
    ['assets:bank:huf', 'HUF'],
  ]) {
    await createAccount(api, tenant.adminKey, { code, currency, normalBalance: 'debit' });
  }
});
afterAll(async () => {
  await api?.close();
});

async function createSource(body: Record<string, unknown>, key = financeKey): Promise<ApiResponse> {
  return api.request('POST', '/v1/sources', { key, idempotencyKey: randomUUID(), body });
}

async function upload(file: string, source: string): Promise<{ answer: ApiResponse; bytes: Buffer }> {
  const bytes = await readFile(resolve(OK, file));
  const form = new FormData();
  form.set('file', new Blob([bytes]), file);
  form.set('source', source);
  const response = await fetch(`${api.baseUrl}/v1/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${financeKey}`, 'idempotency-key': randomUUID() },
    body: form,
  });
  const text = await response.text();
  const answer = { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  return { answer, bytes };
}

async function descriptions(importId: string): Promise<string[]> {
  const page = await api.request('GET', `/v1/imports/${importId}/lines`, { key: financeKey });
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  return page.body.data.map((line: { description: string }) => line.description);
}

describe('POST /v1/sources charset', () => {
  it('is stored and shown; left out it is null (the format default applies)', async () => {
    const named = await createSource({
      name: 'pl-bank',
      account: 'assets:bank:pln',
      format: 'mt940',
      charset: 'windows-1250',
    });
    expect(named.status, JSON.stringify(named.body)).toBe(201);
    expect(named.body).toMatchObject({ name: 'pl-bank', format: 'mt940', charset: 'windows-1250' });
    const plain = await createSource({ name: 'de-bank', account: 'assets:bank:eur', format: 'mt940' });
    expect(plain.body).toMatchObject({ name: 'de-bank', charset: null });
    const listed = await api.request('GET', '/v1/sources', { key: auditorKey });
    expect(
      listed.body.data.map((source: { name: string; charset: string | null }) => [source.name, source.charset]),
    ).toEqual(
      expect.arrayContaining([
        ['pl-bank', 'windows-1250'],
        ['de-bank', null],
      ]),
    );
  });

  it('refuses a charset outside the supported set with a 400 naming the field', async () => {
    for (const charset of ['utf-16le', 'UTF8', 'latin2', '']) {
      const answer = await createSource({
        name: `bad-${randomUUID().slice(0, 8)}`,
        account: 'assets:bank:eur',
        charset,
      });
      expect(answer.status, charset).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(answer.body.error.details), charset).toContain('charset');
    }
  });

  it('is refused to a role that may not create sources', async () => {
    const answer = await createSource(
      { name: 'auditor-source', account: 'assets:bank:eur', charset: 'utf-8' },
      auditorKey,
    );
    expect(answer.status).toBe(403);
  });
});

describe('imports read in the source charset', () => {
  it("Windows-1250 Polish letters, read with the source's charset; the hash is of the bytes received", async () => {
    const { answer, bytes } = await upload('mt940-polish.windows-1250.sta', 'pl-bank');
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({ charset: 'windows-1250', lines: 1, warnings: [] });
    expect(answer.body.fileSha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(answer.body.fileBytes).toBe(String(bytes.length));
    expect(await descriptions(answer.body.id)).toEqual(['Zażółć gęślą jaźń; ŁÓDŹ, ul. Śląska 7; Żółw']);
    const again = await api.request('GET', `/v1/imports/${answer.body.id}`, { key: auditorKey });
    expect(again.body.charset).toBe('windows-1250');
  });

  it('ISO-8859-2 Hungarian letters', async () => {
    expect(
      (await createSource({ name: 'hu-bank', account: 'assets:bank:huf', format: 'mt940', charset: 'iso-8859-2' }))
        .status,
    ).toBe(201);
    const { answer } = await upload('mt940-hungarian.iso-8859-2.sta', 'hu-bank');
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.charset).toBe('iso-8859-2');
    expect(await descriptions(answer.body.id)).toEqual(['Árvíztűrő tükörfúrógép; Győr, Kőszegi út']);
  });

  it('an MT940 source without a charset reads Windows-1252 (€ at 0x80)', async () => {
    const { answer } = await upload('mt940-umlauts-latin1.sta', 'de-bank');
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.charset).toBe('windows-1252');
    expect(await descriptions(answer.body.id)).toContain('Gebühr für Überweisung €-Zahlung');
  });

  it('UTF-8 with a BOM is recognised whatever the source names; an ASCII file is UTF-8', async () => {
    const bom = await upload('mt940-utf8-bom.sta', 'pl-bank');
    expect(bom.answer.status, JSON.stringify(bom.answer.body)).toBe(201);
    expect(bom.answer.body.charset).toBe('utf-8');
    expect(await descriptions(bom.answer.body.id)).toEqual(['Zażółć gęślą jaźń, Árvíztűrő, Müller']);
    const ascii = await upload('mt940-dialects.sta', 'de-bank');
    expect(ascii.answer.status, JSON.stringify(ascii.answer.body)).toBe(201);
    expect(ascii.answer.body.charset).toBe('utf-8');
  });

  it("a source whose charset is utf-8 refuses Windows-1252 text at the bad byte's line", async () => {
    expect(
      (await createSource({ name: 'strict', account: 'assets:bank:eur', format: 'mt940', charset: 'utf-8' })).status,
    ).toBe(201);
    const { answer } = await upload('mt940-umlauts-latin1.sta', 'strict');
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    expect(answer.body.error.details.errors).toEqual([
      { line: 6, reason: 'the file is not valid UTF-8 text (only UTF-8 is accepted)' },
    ]);
  });

  it('statements without a closing balance are imported, each with a warning', async () => {
    const { answer } = await upload('mt940-no-closing.sta', 'de-bank');
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.lines).toBe(2);
    expect(answer.body.warnings).toEqual([
      'statement 0: the statement has no closing balance (:62F: or :62M:); its balance is not checked',
      'statement 1: the statement has no closing balance (:62F: or :62M:); its balance is not checked',
    ]);
    expect(answer.body.statements.map((statement: { balanced: boolean | null }) => statement.balanced)).toEqual([
      null,
      null,
      true,
    ]);
  });
});
