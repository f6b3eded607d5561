import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type ConsoleBrowser, openConsoleBrowser } from './support/console-browser';
import { setupTenant } from './support/ledger-fixtures';

// A crafted console link must not make the console call another endpoint with the signed-in key: route
// parameters are decoded from the hash, so `..%2F` in a link became `../` in an API path, which the browser
// resolves. In Debian's Chromium against the real server, every request the page sends is recorded.

let api: ApiHarness;
let browser: ConsoleBrowser;
let adminKey: string;
/** Paths (with query) of the API requests the page sent since the last reset. */
let requested: string[] = [];

beforeAll(async () => {
  api = await startApi();
  adminKey = (await setupTenant(api, 'console links')).adminKey;
  browser = await openConsoleBrowser();
  browser.page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/')) requested.push(`${request.method()} ${url.pathname}${url.search}`);
  });
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

const CRAFTED_LINKS = [
  '#/discrepancies/..%2F..%2Fv1%2Fapi-keys',
  '#/discrepancies/..%2Fcounts',
  '#/imports/..%2F..%2Fv1%2Faudit-log%3Flimit%3D200',
  '#/imports/%2E%2E',
  '#/accounts/..%2F..%2Fv1%2Fwebhooks',
  '#/accounts/x%2F..%2F..%2Fapi-keys',
];

describe('crafted console links', () => {
  it('show a bad link page and send no API request at all', async () => {
    const { page } = browser;
    await page.goto(`${api.baseUrl}/console/#/discrepancies`);
    await page.getByLabel('API key').fill(adminKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Discrepancy queue' }).waitFor();
    await page.getByText('No discrepancy tickets').waitFor();

    for (const link of CRAFTED_LINKS) {
      requested = [];
      await page.evaluate(`location.hash = ${JSON.stringify(link)}`);
      // Whatever page the link shows, once it has shown it: then what it sent, then what it says.
      const heading = page.locator('main h1').filter({ hasNotText: /^(Discrepancy queue|Reconciliation runs)$/ });
      await heading.waitFor();
      await page.waitForLoadState('networkidle');
      expect(requested, link).toEqual([]);
      expect(await heading.textContent()).toBe('Page not found');
      // Back to a page that does call the API: its requests show that recording works, and that the crafted
      // page sent nothing before it.
      await page.evaluate(`location.hash = '#/runs'`);
      await page.getByRole('heading', { level: 1, name: 'Reconciliation runs' }).waitFor();
      await expect.poll(() => requested.length).toBeGreaterThan(0);
      expect(
        requested.every((request) => request.startsWith('GET /v1/reconciliation/runs')),
        link,
      ).toBe(true);
    }
    await browser.screenshot('crafted-link-not-found');
  });
});
