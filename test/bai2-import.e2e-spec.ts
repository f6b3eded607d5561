import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { bankTenant, deposit } from './support/bank-fixtures';
import { mustPost, sqlRows } from './support/ledger-fixtures';
import { createSource, runReconciliation, statementDay } from './support/reconciliation-fixtures';

const FIXTURES = resolve(__dirname, '..', 'fixtures', 'statements');

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

/** POST /v1/imports with the file and form fields; answers status and body. */
async function upload(key: string, fileName: string, content: string | Buffer, fields: Record<string, string>) {
  const form = new FormData();
  form.set('file', new Blob([content]), fileName);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const response = await fetch(`${api.baseUrl}/v1/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'idempotency-key': randomUUID() },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** A statement day as BAI2 writes it: YYMMDD. */
const bai2Day = (offset: number) => statementDay(offset).slice(2).replaceAll('-', '');

describe('BAI2 through POST /v1/imports', () => {
  it('imports into a bai2 source, stores the lines exactly, and answers the control-total warnings', async () => {
    const { key } = await bankTenant(api, 'bai2 import');
    await createSource(api, key, { name: 'bai2-bank', account: 'assets:bank', format: 'bai2' });
    const path = resolve(FIXTURES, 'ok', 'bai2-control-totals.bai2');
    const imported = await upload(key, 'control-totals.bai2', await readFile(path), { source: 'bai2-bank' });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body).toMatchObject({ source: 'bai2-bank', format: 'bai2', lines: 2, duplicates: 0 });
    expect(imported.body.statements.map((statement: any) => [statement.accountId, statement.balanced])).toEqual([
      ['4004', true],
      ['5005', true],
    ]);
    const expected = JSON.parse(await readFile(`${path}.expected.json`, 'utf8'));
    // Each statement's warnings, in file order, as the import reports them.
    expect(imported.body.warnings).toEqual(
      expected.statements.flatMap((statement: any) =>
        statement.warnings.map((warning: string) => `statement ${statement.statementIndex}: ${warning}`),
      ),
    );
    expect(imported.body.warnings).toHaveLength(5);
    const lines = await api.request('GET', `/v1/imports/${imported.body.id}/lines?limit=10`, { key });
    expect(lines.status).toBe(200);
    expect(
      lines.body.data.map((line: any) => [
        line.lineNumber,
        line.externalId,
        line.amount,
        line.references,
        line.bookedOn,
      ]),
    ).toEqual(
      expected.lines.map((line: any) => [
        line.lineNumber,
        line.externalId,
        line.amountMinor,
        line.references,
        line.bookedOn,
      ]),
    );
  });

  it('refuses a BAI2 file with a bad amount as a whole, naming the line', async () => {
    const { key } = await bankTenant(api, 'bai2 refused');
    const path = resolve(FIXTURES, 'not-ok', 'bai2-bad-amounts.bai2');
    const refused = await upload(key, 'bad.bai2', await readFile(path), { source: 'bank', format: 'bai2' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('IMPORT_INVALID');
    const expected = JSON.parse(await readFile(`${path}.errors.json`, 'utf8'));
    expect(refused.body.error.details.errors).toEqual(
      expected.map(({ lineNumber, reason }: any) => ({ line: lineNumber, reason })),
    );
  });

  it('a reconciliation run matches a BAI2 line by its customer reference, and another by amount and date', async () => {
    const { tenant, key } = await bankTenant(api, 'bai2 matching');
    await mustPost(api, tenant.posterKey, deposit('12500', { ref: 'INV-7001' }));
    await mustPost(api, tenant.posterKey, deposit('4200'));
    // Opening 1000.00, a wire of 125.00 naming the invoice, an ACH credit of 42.00 without one: 1167.00.
    const file = [
      `01,BANK,LEDGER,${bai2Day(0)},0600,E2E1,,,2/`,
      `02,LEDGER,BANK,1,${bai2Day(-1)},2400,USD,2/`,
      '03,777000111,USD,010,100000,,,015,116700,,/',
      '16,195,12500,0,WIRE7001,INV-7001,Wire from ACME, invoice 7001/',
      '16,142,4200,0,ACH7002,,ACH credit',
      '49,233400,4/',
      '98,233400,1,6/',
      '99,233400,1,8/',
    ].join('\n');
    // The source's default format is csv:bank; the upload's own format chooses bai2.
    const imported = await upload(key, 'day.bai2', `${file}\n`, { source: 'bank', format: 'bai2' });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body).toMatchObject({ format: 'bai2', lines: 2, warnings: [] });
    const run = await runReconciliation(api, key);
    expect(run.stats.matched).toMatchObject({ reference: 1, amountDate: 1 });
    const matches = await sqlRows<{ rule: string; evidence: Record<string, unknown> }>(
      api,
      'SELECT rule, evidence FROM matches WHERE tenant_id = $1 ORDER BY rule',
      [tenant.tenantId],
    );
    expect(matches.map((match) => match.rule)).toEqual(['amount_date', 'reference']);
    expect(matches[1]!.evidence).toMatchObject({ field: 'customerReference', reference: 'INV-7001' });
    const lines = await api.request('GET', '/v1/statement-lines?source=bank&status=matched&limit=10', { key });
    expect(lines.body.data.map((line: any) => line.externalId).sort()).toEqual(['bankref:ACH7002', 'bankref:WIRE7001']);
  });
});
