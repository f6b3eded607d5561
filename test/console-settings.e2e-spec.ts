import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type ConsoleBrowser, openConsoleBrowser } from './support/console-browser';
import { createApiKey, expectError } from './support/ledger-fixtures';

// The console's Settings page, driven in Chromium: an admin revokes a key, finance deletes an owner route,
// and each sees only what its roles allow.

let api: ApiHarness;
let browser: ConsoleBrowser;
let adminKey: string;
let financeKey: string;
let checkoutKey: string;

beforeAll(async () => {
  api = await startApi();
  ({ adminKey } = await api.createTenant('console settings'));
  financeKey = await createApiKey(api, adminKey, ['finance'], 'reports');
  checkoutKey = await createApiKey(api, adminKey, ['poster'], 'checkout');
  for (const body of [
    { priority: 10, kind: 'missing_in_ledger', owner: 'payables' },
    { priority: 100, owner: 'anyone' },
  ]) {
    const created = await api.request('POST', '/v1/owner-routes', {
      key: financeKey,
      idempotencyKey: randomUUID(),
      body,
    });
    expect(created.status).toBe(201);
  }
  browser = await openConsoleBrowser();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

async function signIn(key: string): Promise<void> {
  const { page } = browser;
  await page.goto(`${api.baseUrl}/console/#/discrepancies`);
  await expect.poll(() => browser.focusedId()).toBe('api-key');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Discrepancy queue' }).waitFor();
}

describe('the Settings page', () => {
  it('lets an admin revoke a key, which is refused from then on', { timeout: 60_000 }, async () => {
    const { page } = browser;
    await signIn(adminKey);
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const keys = page.locator('table.keys tbody tr');
    await expect.poll(() => keys.count()).toBe(3);
    await expect.poll(() => keys.first().textContent()).toMatch(/checkout\s*poster.*active/);
    await browser.screenshot('settings-01-keys');

    // The browser asks first: dismissed, nothing happens; accepted, the key is revoked.
    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Revoke checkout' }).click();
    await expect
      .poll(() => questions)
      .toEqual(['Revoke the key checkout? It stops working and cannot be brought back.']);
    expect((await api.request('GET', '/v1/api-keys/current', { key: checkoutKey })).status).toBe(200);
    page.on('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke checkout' }).click();
    await page.getByText('Key checkout revoked.').waitFor();
    await expect.poll(() => keys.first().textContent()).toMatch(/checkout\s*poster.*revoked/);
    expect(await page.getByRole('button', { name: 'Revoke checkout' }).count()).toBe(0);
    expectError(await api.request('GET', '/v1/accounts', { key: checkoutKey }), 401, 'UNAUTHENTICATED');

    // The tenant's last admin key stays: the refusal is shown, the key still works.
    // The oldest key, listed last, is the tenant's first admin key (the one signed in).
    await page
      .getByRole('button', { name: /^Revoke / })
      .last()
      .click();
    await page.getByText(/last admin key/).waitFor();
    await browser.screenshot('settings-02-key-revoked');
    expect((await api.request('GET', '/v1/api-keys/current', { key: adminKey })).status).toBe(200);
    expect(browser.errors.filter((message) => !message.startsWith('Failed to load resource'))).toEqual([]);
  });

  it('lets finance delete an owner route, and shows no keys to it', { timeout: 60_000 }, async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(financeKey);
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const routes = page.locator('table.routes tbody tr');
    await expect.poll(() => routes.count()).toBe(2);
    expect(await page.getByRole('heading', { name: 'API keys' }).count()).toBe(0);
    await expect.poll(() => routes.first().textContent()).toMatch(/10\s*kind missing_in_ledger\s*payables/);
    await browser.screenshot('settings-03-routes');

    await page.getByRole('button', { name: 'Delete the route to payables (priority 10)' }).click();
    await page.getByText('Route to payables deleted.').waitFor();
    await expect.poll(() => routes.count()).toBe(1);
    await expect.poll(() => routes.first().textContent()).toMatch(/every ticket \(default\)\s*anyone/);
    const listed = await api.request('GET', '/v1/owner-routes', { key: financeKey });
    expect(listed.body.data.map((route: { owner: string }) => route.owner)).toEqual(['anyone']);
    await browser.screenshot('settings-04-route-deleted');
  });
});
