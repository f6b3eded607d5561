import { afterAll, beforeAll, describe, it } from 'vitest';
import { RunReconciliationUseCase } from '@ledger/reconciliation';
import { type ApiHarness, startApi } from './support/api-harness';
import { type ConsoleBrowser, openConsoleBrowser } from './support/console-browser';
import { createApiKey } from './support/ledger-fixtures';

// An empty queue says whether reconciliation has run at all: before the first run it says so, rather than
// that the books agree with the statements.

let api: ApiHarness;
let browser: ConsoleBrowser;
let tenantId: string;
let finance: string;

beforeAll(async () => {
  api = await startApi();
  const tenant = await api.createTenant('empty queue');
  tenantId = tenant.tenantId;
  finance = await createApiKey(api, tenant.adminKey, ['finance'], 'finance');
  browser = await openConsoleBrowser();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

describe('the empty queue', () => {
  it('says no run happened yet, then, after a run that found nothing, that the books agree', {
    timeout: 60_000,
  }, async () => {
    const { page } = browser;
    await page.goto(`${api.baseUrl}/console/#/discrepancies`);
    await page.getByLabel('API key').fill(finance);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Discrepancy queue' }).waitFor();
    await page.getByText('No discrepancy tickets: no reconciliation run yet.').waitFor();
    await page.getByRole('link', { name: 'Reconciliation runs', exact: true }).first().waitFor();
    await browser.screenshot('queue-empty-01-no-run');

    await api.app.get(RunReconciliationUseCase).execute({ tenantId, trigger: 'cli', actor: 'test' });
    await page.reload();
    await page
      .getByText('No discrepancy tickets: every run so far found the books and statements in agreement.')
      .waitFor();
    await browser.screenshot('queue-empty-02-after-run');
  });
});
