import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type ConsoleBrowser, openConsoleBrowser } from './support/console-browser';
import { createAccount, createApiKey, mustPost, seededTenant, sqlRows } from './support/ledger-fixtures';
import { bankCsv, createSource, financeKey } from './support/reconciliation-fixtures';
import { startWorker } from './support/worker-harness';

// The finance console in Debian's Chromium against the real server on PostgreSQL: the finance team's
// day (sign in, import, reconcile, work a ticket) and an auditor who may look but not change.

let api: ApiHarness;
let browser: ConsoleBrowser;
let finance: string;
let auditor: string;
/** The ledger's 25.00 deposit that no statement line reports: what a person matches by hand. */
let unreported: string;

const DAY_MS = 24 * 3600 * 1000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
const STATEMENT = bankCsv([
  `${day(-1)},${day(-1)},Invoice 1,100.00,USD,INV-1,Acme`,
  `${day(-1)},${day(-1)},Unknown deposit,999.00,USD,,Delta`,
  `${day(-1)},${day(-1)},Refund reversal,42.00,USD,,Gamma`,
]);

beforeAll(async () => {
  api = await startApi();
  const tenant = await seededTenant(api, 'console');
  await createAccount(api, tenant.adminKey, {
    code: 'assets:bank',
    currency: 'USD',
    normalBalance: 'debit',
    allowNegative: true,
  });
  await createAccount(api, tenant.adminKey, {
    code: 'income:sales',
    currency: 'USD',
    normalBalance: 'credit',
    allowNegative: true,
  });
  finance = await financeKey(api, tenant);
  auditor = await createApiKey(api, tenant.adminKey, ['auditor'], 'auditor');
  await createSource(api, finance, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
  const deposit = (amount: string, daysAgo: number, extra: object = {}) =>
    mustPost(api, tenant.posterKey, {
      ...extra,
      effectiveAt: new Date(Date.now() - daysAgo * DAY_MS).toISOString(),
      entries: [
        { account: 'assets:bank', direction: 'debit', amount, currency: 'USD' },
        { account: 'income:sales', direction: 'credit', amount, currency: 'USD' },
      ],
    });
  await deposit('10000', 3, { externalRef: 'INV-1' });
  unreported = (await deposit('2500', 2)).id;
  browser = await openConsoleBrowser();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

async function signIn(key: string): Promise<void> {
  const { page } = browser;
  await page.goto(`${api.baseUrl}/console/#/discrepancies`);
  // By keyboard: the key field has focus on arrival, Enter submits.
  await expect.poll(() => browser.focusedId()).toBe('api-key');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Discrepancy queue' }).waitFor();
}

/** A reconciliation run on a machine shared with other test files can take far longer than a click. */
const RUN_WAIT = { timeout: 45_000 };

const unexpectedErrors = () => browser.errors.filter((message) => !message.startsWith('Failed to load resource'));

describe('the finance console', () => {
  it('is served at /console with a strict Content-Security-Policy and no inline script', async () => {
    const redirect = await fetch(`${api.baseUrl}/console`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    const index = await fetch(`${api.baseUrl}/console/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(index.headers.get('etag')).not.toBeNull(); // the console's files are revalidated by it
    const text = await index.text();
    expect(text).toMatch(/<script type="module" crossorigin src="\/console\/assets\/index-[\w-]+\.js"><\/script>/);
    expect(text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect((await fetch(`${api.baseUrl}/console/assets/nothing.js`)).status).toBe(404);
  });

  it('refuses a wrong key, then signs in by keyboard and shows an empty queue', async () => {
    const { page } = browser;
    await page.goto(`${api.baseUrl}/console/`);
    await page.getByLabel('API key').fill('not-a-real-key-at-all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This API key was not accepted').waitFor();
    await browser.screenshot('01-sign-in-refused');

    await signIn(finance);
    await page.getByText('No discrepancy tickets').waitFor();
    await expect.poll(() => browser.stored('ledger-console.api-key')).toBe(finance);
    await browser.screenshot('02-queue-empty');
  });

  it('uploads a statement with progress and shows its lines', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Imports', exact: true }).click();
    await page.getByLabel('Source', { exact: true }).selectOption('bank');
    await page
      .getByLabel('Statement file')
      .setInputFiles({ name: 'november.csv', mimeType: 'text/csv', buffer: Buffer.from(STATEMENT) });
    await page.getByRole('button', { name: 'Upload statement' }).click();
    await page.getByText('Imported 3 line(s) from november.csv into bank').waitFor();
    await browser.screenshot('03-import-uploaded');

    await page.getByRole('link', { name: 'See the lines of this import' }).click();
    await page.getByRole('heading', { level: 1, name: 'Import of november.csv into bank' }).waitFor();
    await expect.poll(() => page.locator('table tbody tr').count()).toBe(3);
    await page.getByRole('cell', { name: '999.00 USD' }).waitFor();
    // Who imported it: the signed-in key.
    await page
      .locator('.summary .by')
      .getByText(/^by api-key:[0-9a-f-]{36}$/)
      .waitFor();
    await browser.screenshot('04-import-lines');
  });

  it('shows a refused file with every bad line', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Imports', exact: true }).click();
    await page.getByLabel('Source', { exact: true }).selectOption('bank');
    const bad = bankCsv([`${day(-1)},${day(-1)},Half a cent,1.005,USD,,X`, `not-a-date,${day(-1)},Y,1.00,USD,,Y`]);
    await page
      .getByLabel('Statement file')
      .setInputFiles({ name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await page.getByRole('button', { name: 'Upload statement' }).click();
    await page.getByRole('alert').getByText('cannot be read exactly').waitFor();
    await expect.poll(() => page.getByRole('alert').locator('tbody tr').count()).toBe(2);
    await browser.screenshot('05-import-refused');
  });

  it('runs reconciliation and charts the runs', { timeout: 120_000 }, async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Reconciliation runs', exact: true }).click();
    await page.getByText('No reconciliation run yet').waitFor();
    // No worker yet: the run is queued, and the page says so while it follows the run.
    await page.getByRole('button', { name: 'Run reconciliation now' }).click();
    await page.getByText('Run queued: waiting for the worker…').waitFor(RUN_WAIT);
    await expect.poll(() => page.locator('table tbody tr td:nth-child(3)').allTextContents()).toEqual(['queued']);
    await expect.poll(() => page.getByRole('button', { name: 'Running…' }).isDisabled()).toBe(true);
    await browser.screenshot('06-run-queued');
    const worker = await startWorker(api, { RECONCILE_CRON: '0 0 1 1 *' });
    try {
      await page.getByText('Run finished: 2 finding(s), 2 ticket(s) opened, 0 resolved.').waitFor(RUN_WAIT);
      await page.getByRole('img', { name: /Runs on this page over time/ }).waitFor();
      await expect.poll(() => page.locator('table tbody tr').count()).toBe(1);
      // A second run finds the same two causes and opens nothing new: one more point on the chart.
      await page.getByRole('button', { name: 'Run reconciliation now' }).click();
      await page.getByText('Run finished: 2 finding(s), 0 ticket(s) opened, 0 resolved.').waitFor(RUN_WAIT);
    } finally {
      await worker.close();
    }
    await expect.poll(() => page.locator('table tbody tr').count()).toBe(2);
    await expect
      .poll(() => page.locator('table tbody .by').allTextContents())
      .toEqual([expect.stringMatching(/^by api-key:/), expect.stringMatching(/^by api-key:/)]);
    await browser.screenshot('06-runs');
  });

  it('shows the new tickets with counts and filters', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'See the queue' }).click();
    await page.getByRole('heading', { level: 1, name: 'Discrepancy queue' }).waitFor();
    const rows = page.locator('table.tickets tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByRole('link', { name: /bank booked 999\.00 USD/ }).waitFor();
    await expect
      .poll(() => page.getByRole('list', { name: 'Tickets by status' }).textContent())
      .toMatch(/open\s*2\s*acknowledged\s*0\s*resolved\s*0\s*ignored\s*0\s*overdue\s*0\s*total\s*2/i);
    await browser.screenshot('07-queue-tickets');

    await page.getByLabel('Kind', { exact: true }).selectOption('missing_in_ledger');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => browser.hash()).toContain('kind=missing_in_ledger');
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByLabel('Age', { exact: true }).selectOption('7');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No tickets match these filters.').waitFor();
    await browser.screenshot('08-queue-filtered-empty');
  });

  it('assigns and resolves a ticket with a note, and shows both in its history', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Discrepancies', exact: true }).click();
    await page.getByRole('link', { name: /bank booked 42\.00 USD/ }).click();
    await page.getByRole('heading', { level: 1, name: /bank booked 42\.00 USD/ }).waitFor();
    await page.getByRole('heading', { name: 'Statement: bank' }).waitFor();
    await page.getByText('No match joins these lines and entries').waitFor();

    await page.getByLabel('Owner', { exact: true }).fill('alice');
    await page.getByRole('button', { name: 'Assign' }).click();
    await page.getByText('Assigned to alice.').waitFor();
    await page.getByLabel('Resolve: the cause is fixed').check();
    await page.getByLabel('Note (required)').fill('Refund of order 77, booked by hand as journal 42');
    await page.getByRole('button', { name: 'Save outcome' }).click();
    await page.getByText('Ticket resolved.').waitFor();
    // The resolve form is gone with the open ticket; keyboard focus continues at the outcome, not at the top.
    await expect.poll(() => browser.focusedId()).toBe('outcome');

    const history = page.locator('section[aria-labelledby="history-heading"] tbody tr');
    await expect
      .poll(() => history.allInnerTexts())
      .toEqual([
        expect.stringMatching(/reconciler\s+opened/),
        expect.stringMatching(/assigned\s+owner: .+ → alice/),
        expect.stringMatching(/resolved\s+status: open → resolved\s+Refund of order 77, booked by hand as journal 42/),
      ]);
    await browser.screenshot('09-ticket-resolved');

    const id = (await browser.hash()).split('/').at(-1)!;
    const stored = await api.request('GET', `/v1/discrepancies/${id}`, { key: finance });
    expect(stored.body).toMatchObject({ status: 'resolved', owner: 'alice' });
    expect(stored.body.history.at(-1)).toMatchObject({
      action: 'resolved',
      note: 'Refund of order 77, booked by hand as journal 42',
    });
  });

  it('matches a statement line to a ledger transaction by hand and explains the match', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: '← Back to the queue' }).click();
    await page.getByRole('link', { name: /bank booked 999\.00 USD/ }).click();
    await page.getByRole('cell', { name: 'Unknown deposit', exact: true }).waitFor();
    await browser.screenshot('10-ticket-open');
    await page.getByLabel('Transactions').fill(unreported);
    await page
      .getByLabel('Note', { exact: true })
      .fill('the customer paid 999.00 against the 25.00 invoice; the rest is a prepayment');
    await page.getByRole('button', { name: 'Match', exact: true }).click();
    await page.getByText('Matched. The next reconciliation run').waitFor();
    await page.getByText(/Matched by rule manual/).waitFor();
    await page.getByText(`Transaction ${unreported}`).waitFor();
    const matches = await api.request('GET', `/v1/matches?transaction=${unreported}`, { key: finance });
    expect(matches.body.data).toHaveLength(1);
    expect(matches.body.data[0].statementLines[0]).toMatchObject({ amount: '99900' });
  });

  it('shows accounts with balances, entries with their running balance and a chart', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Accounts', exact: true }).click();
    await page.getByRole('link', { name: 'assets:bank' }).click();
    await page.getByRole('heading', { level: 1, name: 'assets:bank' }).waitFor();
    await page.getByRole('img', { name: /Posted balance over time/ }).waitFor();
    await page.getByRole('cell', { name: '125.00 USD' }).first().waitFor();
    await page.getByLabel('Balance as of').fill(day(-3));
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText(`Posted balance at the end of ${day(-3)} (UTC): 100.00 USD`).waitFor();
    await browser.screenshot('11-account');
  });

  it('shows a finance key that proofs are for auditors', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Proofs', exact: true }).click();
    await page
      .getByText(/roles do not allow this/)
      .first()
      .waitFor();
    await browser.screenshot('12-proofs-finance');
  });

  it('lets an auditor look at a ticket but not resolve it', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await browser.stored('ledger-console.api-key')).toBeNull();
    await signIn(auditor);
    await page.getByText('Key roles: auditor').waitFor();
    await page.getByRole('link', { name: /bank booked 999\.00 USD/ }).click();
    await page.getByText(/Read only: this key's roles \(auditor\) cannot change tickets/).waitFor();
    expect(await page.getByRole('button', { name: 'Save outcome' }).count()).toBe(0);
    await browser.screenshot('13-ticket-auditor');

    // Nor by going around the page: the server refuses the auditor's change.
    const id = (await browser.hash()).split('/').at(-1)!;
    const status = await page.evaluate(
      async ({ id, key }) =>
        (
          await fetch(`/v1/discrepancies/${id}`, {
            method: 'PATCH',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ status: 'resolved', note: 'not mine to close' }),
          })
        ).status,
      { id, key: auditor },
    );
    expect(status).toBe(403);
    expect((await api.request('GET', `/v1/discrepancies/${id}`, { key: finance })).body.status).toBe('open');

    // Reading the Proofs page stores nothing; its button issues a proof, and again at the same position
    // answers the stored one.
    const proofs = async () =>
      (await sqlRows<{ n: number }>(api, 'SELECT count(*)::int AS n FROM balance_proofs'))[0]!.n;
    const before = await proofs();
    await page.getByRole('link', { name: 'Proofs', exact: true }).click();
    await page.getByRole('button', { name: 'Issue a new proof' }).waitFor();
    await page.getByRole('button', { name: 'Issue a new proof' }).click();
    await page.getByRole('button', { name: 'Download proof (JSON)' }).waitFor();
    await page.getByRole('button', { name: 'Issue a new proof' }).click();
    await page.getByText(/it still stands, nothing new was signed/).waitFor();
    await page.getByRole('link', { name: 'Proofs', exact: true }).click();
    await page.reload();
    await page.getByRole('button', { name: 'Download proof (JSON)' }).waitFor();
    expect(await proofs()).toBe(before + 1);
    await browser.screenshot('14-proofs-auditor');
    expect(unexpectedErrors()).toEqual([]);
  });
});
