import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { bankTenant, deposit } from './support/bank-fixtures';
import { type ConsoleBrowser, openConsoleBrowser } from './support/console-browser';
import { createApiKey, mustPost } from './support/ledger-fixtures';
import {
  bankCsv,
  listTickets,
  runReconciliation,
  statementDay,
  uploadStatement,
} from './support/reconciliation-fixtures';

// The ticket page's suggestions, driven in Chromium: a missing_in_ledger ticket shows the likely ledger
// transactions best first, and "Match these" on the first matches them and leaves the ticket resolved.

let api: ApiHarness;
let browser: ConsoleBrowser;
let key: string;
let auditorKey: string;
let ticketId: string;
let exactId: string;
let nearId: string;

beforeAll(async () => {
  api = await startApi();
  const bank = await bankTenant(api, 'console candidates');
  key = bank.key;
  auditorKey = await createApiKey(api, bank.tenant.adminKey, ['auditor']);
  await uploadStatement(
    api,
    key,
    'bank',
    'statement.csv',
    bankCsv([`${statementDay(-1)},${statementDay(-1)},Invoice 42,120.00,USD,INV-42,Acme Corp`]),
  );
  await runReconciliation(api, key);
  [{ id: ticketId }] = await listTickets(api, key, '&kind=missing_in_ledger');
  const poster = bank.tenant.posterKey;
  exactId = (await mustPost(api, poster, deposit('12000', { ref: 'INV-42', description: 'Acme invoice', daysAgo: 1 })))
    .id;
  nearId = (await mustPost(api, poster, deposit('11950', { description: 'Acme transfer', daysAgo: 2 }))).id;
  browser = await openConsoleBrowser();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

async function openTicket(apiKey: string): Promise<void> {
  const { page } = browser;
  await page.goto(`${api.baseUrl}/console/#/discrepancies`);
  await expect.poll(() => browser.focusedId()).toBe('api-key');
  await page.keyboard.type(apiKey);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Discrepancy queue' }).waitFor();
  await page.goto(`${api.baseUrl}/console/#/discrepancies/${ticketId}`);
  await page.getByRole('heading', { level: 2, name: 'Suggested matches' }).waitFor();
}

describe('suggested matches on the ticket page', () => {
  it('shows a reader the suggestions without the button', { timeout: 60_000 }, async () => {
    const { page } = browser;
    await openTicket(auditorKey);
    const rows = page.getByTestId('candidate');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.getByTestId('candidate-match').count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
  });

  it('lists them best first with amount, date, reference, score and reasons; one click matches and resolves', {
    timeout: 60_000,
  }, async () => {
    const { page } = browser;
    await openTicket(key);
    const rows = page.getByTestId('candidate');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).getAttribute('data-transaction')).toBe(exactId);
    expect(await rows.nth(1).getAttribute('data-transaction')).toBe(nearId);
    const first = (await rows.nth(0).textContent()) ?? '';
    expect(first).toContain('120.00 USD');
    expect(first).toContain('INV-42');
    expect(first).toContain(statementDay(-1));
    expect(first).toMatch(/the same amount as the statement/);
    expect(first).toMatch(/reference INV-42/);
    expect(first).toMatch(/\b100\b/);
    expect((await rows.nth(1).textContent()) ?? '').toMatch(/0\.50 USD less than the statement/);
    await browser.screenshot('candidates-01-suggestions');

    await rows.nth(0).getByTestId('candidate-match').click();
    await page.getByText('Matched and resolved.').waitFor();
    await expect.poll(() => page.locator('.status').first().textContent()).toMatch(/^resolved$/i);
    expect(await page.getByTestId('candidate').count()).toBe(0);
    await browser.screenshot('candidates-02-matched');

    const ticket = await api.request('GET', `/v1/discrepancies/${ticketId}`, { key });
    expect(ticket.body.status).toBe('resolved');
    const matches = await api.request('GET', `/v1/matches?transaction=${exactId}`, { key });
    expect(matches.body.data).toHaveLength(1);
    expect(matches.body.data[0].statementLines.map((line: { id: string }) => line.id)).toEqual([
      ticket.body.evidence.statementLineId,
    ]);
    const next = await runReconciliation(api, key);
    expect(next.stats).toMatchObject({ opened: 0, reopened: 0 });
    expect(browser.errors.filter((message) => !message.startsWith('Failed to load resource'))).toEqual([]);
  });
});
