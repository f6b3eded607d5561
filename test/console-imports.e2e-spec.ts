import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type ConsoleBrowser, openConsoleBrowser } from './support/console-browser';
import { createAccount, createApiKey } from './support/ledger-fixtures';
import { bankCsv, createSource, statementDay, uploadStatement } from './support/reconciliation-fixtures';

// The console's Imports page lists the imports, newest first, by source and page by page, each linking to
// its lines, for finance and for an auditor who may read but not import.

let api: ApiHarness;
let browser: ConsoleBrowser;
let finance: string;
let auditor: string;

/** One more than a page of the console's list (25). */
const BANK_IMPORTS = 26;

beforeAll(async () => {
  api = await startApi();
  const { adminKey } = await api.createTenant('console imports');
  finance = await createApiKey(api, adminKey, ['finance'], 'finance');
  auditor = await createApiKey(api, adminKey, ['auditor'], 'auditor');
  await createAccount(api, adminKey, { code: 'assets:bank', currency: 'USD', normalBalance: 'debit' });
  await createAccount(api, adminKey, { code: 'assets:gateway', currency: 'USD', normalBalance: 'debit' });
  await createSource(api, finance, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
  await createSource(api, finance, { name: 'gateway', account: 'assets:gateway', format: 'csv:bank' });
  for (let index = 1; index <= BANK_IMPORTS; index++) {
    const rows = [`${statementDay(-1)},${statementDay(-1)},Deposit ${index},${index}.00,USD,DEP-${index},Acme`];
    await uploadStatement(api, finance, 'bank', `bank-${index}.csv`, bankCsv(rows));
  }
  const gatewayRows = [1, 2].map((n) => `${statementDay(-1)},${statementDay(-1)},Payout,${n}.00,USD,P-${n},Gw`);
  await uploadStatement(api, finance, 'gateway', 'gateway-payouts.csv', bankCsv(gatewayRows));
  browser = await openConsoleBrowser();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

async function openImports(key: string): Promise<void> {
  const { page } = browser;
  await page.goto(`${api.baseUrl}/console/#/imports`);
  await expect.poll(() => browser.focusedId()).toBe('api-key');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Import a statement' }).waitFor();
}

/** The few Polish letters the test writes, as Windows-1250 bytes; ASCII as it is. */
const WINDOWS_1250: Record<string, number> = { ł: 0xb3, ż: 0xbf, ó: 0xf3 };
function windows1250(text: string): Buffer {
  return Buffer.from([...text].map((char) => WINDOWS_1250[char] ?? char.charCodeAt(0)));
}

const fileCells = () => browser.page.locator('table.imports tbody tr td:nth-child(3)');

describe('the Imports page', () => {
  it('lists imports newest first, page by page, by source, each opening its lines', { timeout: 90_000 }, async () => {
    const { page } = browser;
    await openImports(finance);
    await expect.poll(() => fileCells().count()).toBe(25);
    expect(await fileCells().first().textContent()).toBe('gateway-payouts.csv');
    expect(await fileCells().nth(1).textContent()).toBe(`bank-${BANK_IMPORTS}.csv`);
    await browser.screenshot('imports-01-list');

    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => fileCells().allTextContents()).toEqual(['bank-2.csv', 'bank-1.csv']);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => fileCells().count()).toBe(25);

    await page.getByLabel('Imports of').selectOption('gateway');
    await expect.poll(() => fileCells().allTextContents()).toEqual(['gateway-payouts.csv']);
    expect(page.url()).toContain('#/imports?source=gateway');
    // The source's lines across its imports: none matched yet (no run), so all of them by default. Both
    // are of one day, and the ids order lines of one day, so the test reads them as a set.
    const lineAmounts = async () =>
      (await page.locator('table.source-lines tbody tr td:nth-child(4)').allTextContents()).sort();
    await expect.poll(lineAmounts).toEqual(['1.00 USD', '2.00 USD']);
    await browser.screenshot('imports-02-one-source');
    await page.getByLabel('Lines of gateway').selectOption('matched');
    await page.getByText('No such line of gateway.').waitFor();
    expect(page.url()).toContain('lines=matched');
    await page.getByLabel('Lines of gateway').selectOption('all');
    await expect.poll(lineAmounts).toEqual(['1.00 USD', '2.00 USD']);

    await page
      .getByRole('row', { name: /gateway-payouts\.csv/ })
      .getByRole('link')
      .click();
    await page.getByRole('heading', { level: 1, name: 'Import of gateway-payouts.csv into gateway' }).waitFor();
    await expect.poll(() => page.locator('table tbody tr').count()).toBe(2);
  });

  it('shows a new upload at the top of the list at once', { timeout: 60_000 }, async () => {
    const { page } = browser;
    await page.goto(`${api.baseUrl}/console/#/imports`);
    await page.getByRole('heading', { level: 1, name: 'Import a statement' }).waitFor();
    await expect.poll(() => fileCells().count()).toBe(25);
    await page.getByLabel('Source', { exact: true }).selectOption('bank');
    const rows = [`${statementDay(-1)},${statementDay(-1)},Late deposit,77.00,USD,LATE,Acme`];
    await page
      .getByLabel('Statement file')
      .setInputFiles({ name: 'late.csv', mimeType: 'text/csv', buffer: Buffer.from(bankCsv(rows)) });
    await page.getByRole('button', { name: 'Upload statement' }).click();
    await page.getByText('Imported 1 line(s) from late.csv into bank').waitFor();
    await expect.poll(() => fileCells().first().textContent()).toBe('late.csv');
  });

  it('creates a source with a charset and no format, whose files are detected', { timeout: 60_000 }, async () => {
    const { page } = browser;
    await page.getByText('Add a statement source').click();
    await page.getByLabel('Name').fill('swift');
    await page.getByLabel('Ledger account').fill('assets:bank');
    const formats = await page.getByLabel('Format of its files').locator('option').allTextContents();
    expect(formats[0]).toBe('Detect from each file');
    await page.getByLabel('Format of its files').selectOption('');
    await page.getByLabel('Charset when not UTF-8').selectOption('windows-1250');
    await browser.screenshot('imports-04-new-source');
    await page.getByRole('button', { name: 'Create source' }).click();
    await page.getByText('Source swift created.').waitFor();
    const sources = await api.request('GET', '/v1/sources', { key: finance });
    expect(sources.body.data.find((source: { name: string }) => source.name === 'swift')).toMatchObject({
      format: null,
      charset: 'windows-1250',
    });
    // Polish letters in Windows-1250, in a file that names no format: detected as MT940, read in the charset.
    const day = statementDay(-1).slice(2).replaceAll('-', '');
    const statement = windows1250(
      `:20:PL1\r\n:25:PL29114010810000267002001002\r\n:28C:1\r\n:60F:C${day}USD0,00\r\n` +
        `:61:${day}C5,00NTRFNONREF\r\n:86:Zapłata żółw\r\n:62F:C${day}USD5,00\r\n-\r\n`,
    );
    await page.getByLabel('Source', { exact: true }).selectOption('swift');
    await page
      .getByLabel('Statement file')
      .setInputFiles({ name: 'polish.sta', mimeType: 'application/octet-stream', buffer: statement });
    await page.getByRole('button', { name: 'Upload statement' }).click();
    await page.getByText('Imported 1 line(s) from polish.sta into swift').waitFor();
    const imported = await api.request('GET', '/v1/imports?source=swift', { key: finance });
    expect(imported.body.data[0]).toMatchObject({ format: 'mt940', charset: 'windows-1250' });
  });

  it('lets an auditor read the list without an upload form', { timeout: 60_000 }, async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await openImports(auditor);
    await page.getByText('Read only: importing needs a finance key.').waitFor();
    await expect.poll(() => fileCells().count()).toBe(25);
    expect(await page.getByRole('button', { name: 'Upload statement' }).count()).toBe(0);
    await page.getByLabel('Imports of').selectOption('gateway');
    await expect.poll(() => fileCells().allTextContents()).toEqual(['gateway-payouts.csv']);
    await browser.screenshot('imports-03-auditor');
  });

  it('marks an interim report and its lines interim until the statement brings them', { timeout: 60_000 }, async () => {
    const { page } = browser;
    const day = statementDay(-1).slice(2).replaceAll('-', '');
    const head = ':20:R1\n:25:US00BANK1\n:28C:1/1\n';
    const lines = `:61:${day}C12,00NTRFINV-1//B1\n:86:Invoice 1\n:61:${day}C13,00NTRFINV-2//B2\n:86:Invoice 2\n`;
    const interim = `${head}:34F:USD0,\n:13D:${day}1200+0000\n${lines}-\n`;
    const late = `:61:${day}C14,00NTRFINV-3//B3\n:86:Invoice 3\n`;
    const final = `${head}:60F:C${day}USD0,\n${lines}${late}:62F:C${day}USD39,00\n-\n`;
    await createSource(api, finance, { name: 'intraday', account: 'assets:bank', format: 'mt940' });
    await uploadStatement(api, finance, 'intraday', 'noon.sta', interim, 'mt942');
    // The page read its sources before this one was made: open it afresh on the new source.
    await page.goto(`${api.baseUrl}/console/#/imports?source=intraday`);
    await page.reload();
    const formats = () => page.locator('table.imports tbody tr td:nth-child(4)').allTextContents();
    const reports = () => page.locator('table.source-lines tbody tr td:nth-child(6)').allTextContents();
    await expect.poll(formats).toEqual(['mt942 (interim)']);
    await expect.poll(async () => (await reports()).map((text) => text.trim())).toEqual(['interim', 'interim']);
    await browser.screenshot('imports-04-interim');

    await uploadStatement(api, finance, 'intraday', 'end-of-day.sta', final);
    await page.reload();
    await expect.poll(formats).toEqual(['mt940', 'mt942 (interim)']);
    await expect.poll(async () => (await reports()).map((text) => text.trim())).toEqual(['final', 'final', 'final']);
  });
});
