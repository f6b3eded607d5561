import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type ConsoleBrowser, openConsoleBrowser } from './support/console-browser';
import { createAccount, createApiKey, seededTenant } from './support/ledger-fixtures';
import {
  bankCsv,
  createSource,
  financeKey,
  listTickets,
  runReconciliation,
  statementDay,
  uploadStatement,
} from './support/reconciliation-fixtures';

// "Book it" on the ticket page, in Debian's Chromium against the real server: a bank fee the ledger never
// heard of is booked against an expense account in two clicks, and the ticket shows resolved with its
// transaction; an auditor sees no such form.

let api: ApiHarness;
let browser: ConsoleBrowser;
let finance: string;
let auditor: string;
let feeTicket: any;
let interestTicket: any;

beforeAll(async () => {
  api = await startApi();
  const tenant = await seededTenant(api, 'console adjustments');
  const accounts = [
    ['assets:bank', 'USD', 'debit'],
    ['income:interest', 'USD', 'credit'],
    ['expenses:bank-fees', 'USD', 'debit'],
    ['expenses:rounding', 'USD', 'debit'],
    ['liabilities:loans', 'USD', 'credit'],
    ['expenses:travel-eur', 'EUR', 'debit'],
  ] as const;
  for (const [code, currency, normalBalance] of accounts)
    await createAccount(api, tenant.adminKey, { code, currency, normalBalance, allowNegative: true });
  finance = await financeKey(api, tenant);
  auditor = await createApiKey(api, tenant.adminKey, ['auditor'], 'auditor');
  await createSource(api, finance, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
  await uploadStatement(
    api,
    finance,
    'bank',
    'statement.csv',
    bankCsv([
      `${statementDay(-1)},${statementDay(-1)},Monthly account fee,-12.50,USD,FEE-2611,Bank`,
      `${statementDay(-1)},${statementDay(-1)},Interest,3.21,USD,INT-1,Bank`,
    ]),
  );
  await runReconciliation(api, finance);
  const tickets = await listTickets(api, finance);
  feeTicket = tickets.find((ticket) => ticket.amount === '-1250');
  interestTicket = tickets.find((ticket) => ticket.amount === '321');
  expect(feeTicket).toMatchObject({ kind: 'missing_in_ledger', status: 'open' });
  expect(interestTicket).toMatchObject({ kind: 'missing_in_ledger', status: 'open' });
  browser = await openConsoleBrowser();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/** Errors the page logged, less the browser's note of each 4xx it was answered (a favicon, say). */
const unexpectedErrors = () => browser.errors.filter((message) => !message.startsWith('Failed to load resource'));

async function signIn(key: string): Promise<void> {
  const { page } = browser;
  await page.goto(`${api.baseUrl}/console/#/discrepancies`);
  await expect.poll(() => browser.focusedId()).toBe('api-key');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Discrepancy queue' }).waitFor();
}

describe('Book it on the ticket page', () => {
  it('books a missing bank fee against an expense account and shows the ticket resolved', {
    timeout: 60_000,
  }, async () => {
    const { page } = browser;
    await signIn(finance);
    await page.goto(`${api.baseUrl}/console/#/discrepancies/${feeTicket.id}`);
    const picker = page.getByTestId('adjust-account');
    await picker.waitFor();
    // Money out: expenses lead, then income; the ticket's own account and other currencies are not offered.
    await expect
      .poll(() => picker.locator('option').allTextContents())
      .toEqual(['expenses:bank-fees', 'expenses:rounding', 'income:interest', 'equity:seed', 'liabilities:loans']);
    expect(await picker.inputValue()).toBe('expenses:bank-fees');
    await browser.screenshot('adjust-01-ticket-open');

    await picker.selectOption('expenses:bank-fees');
    await page.getByTestId('adjust-submit').click();
    const booked = page.getByTestId('adjust-booked');
    await booked.waitFor();
    await page.getByText('Booked against expenses:bank-fees: the ticket is resolved.').waitFor();
    expect(await page.locator('.summary .status').textContent()).toBe('resolved');
    expect(await page.getByTestId('adjust-submit').count()).toBe(0);

    const ticket = (await api.request('GET', `/v1/discrepancies/${feeTicket.id}`, { key: finance })).body;
    expect(ticket.status).toBe('resolved');
    const transactionId = ticket.history.at(-1).changes.transactionId as string;
    const link = page.getByTestId('adjust-transaction');
    expect(await link.textContent()).toBe(transactionId);
    expect(await link.getAttribute('href')).toBe('#/accounts/expenses%3Abank-fees');
    // The evidence is read again: the new transaction is on the ledger side, joined by the manual match.
    await page
      .locator('table caption')
      .filter({ hasText: `Transaction ${transactionId}` })
      .waitFor();
    await browser.screenshot('adjust-02-ticket-booked');

    await link.click();
    await page.getByRole('heading', { level: 1, name: 'expenses:bank-fees' }).waitFor();
    await page.getByText(transactionId).first().waitFor();
    await browser.screenshot('adjust-03-counter-account');

    const run = await runReconciliation(api, finance);
    expect(run.stats).toMatchObject({ opened: 0, reopened: 0 });
    expect(unexpectedErrors()).toEqual([]);
  });

  it('offers income first for money in, and no booking at all to an auditor', { timeout: 60_000 }, async () => {
    const { page } = browser;
    await page.goto(`${api.baseUrl}/console/#/discrepancies/${interestTicket.id}`);
    const picker = page.getByTestId('adjust-account');
    await picker.waitFor();
    await expect
      .poll(() => picker.locator('option').allTextContents())
      .toEqual(['income:interest', 'expenses:bank-fees', 'expenses:rounding', 'equity:seed', 'liabilities:loans']);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(auditor);
    await page.goto(`${api.baseUrl}/console/#/discrepancies/${interestTicket.id}`);
    await page.getByText(/Read only: this key's roles \(auditor\) cannot change tickets/).waitFor();
    expect(await page.getByTestId('adjust-account').count()).toBe(0);
    expect(await page.getByTestId('adjust-submit').count()).toBe(0);
    await browser.screenshot('adjust-04-auditor-open');
    // The booked ticket tells an auditor how it was resolved.
    await page.goto(`${api.baseUrl}/console/#/discrepancies/${feeTicket.id}`);
    await page.getByTestId('adjust-booked').waitFor();
    expect(unexpectedErrors()).toEqual([]);
  });
});
