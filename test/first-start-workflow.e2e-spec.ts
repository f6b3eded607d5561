import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT, BuiltProcess, READY_LINE } from './support/built-process';
import { type ConsoleBrowser, openConsoleBrowser } from './support/console-browser';
import { freePort } from './support/free-port';
import { type Answer, requestJson } from './support/http-json';

// A new finance user's first hour, end to end: `npm start` (the built API on its embedded database, which
// loads the demo on first start and runs its worker in-process), then the console in Chromium. A bank fee
// the ledger never heard of is booked against an expense account in two clicks, the next run leaves it
// resolved, and a deposit the matcher could not pair is matched from its first suggestion.

let api: BuiltProcess;
let browser: ConsoleBrowser;
let dataDir: string;
let base: string;
let demoKey: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'ledger-first-start-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  api = BuiltProcess.spawn('api', BUILT.api, {
    env: { PORT: String(port), HOST: '127.0.0.1', LEDGER_DATA_DIR: dataDir },
  });
  await api.waitUntilReady(READY_LINE.api);
  demoKey = /demo API key:\s+(\S+)/.exec(api.printed)?.[1] ?? '';
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function call(method: string, path: string, body?: unknown): Promise<Answer> {
  return requestJson(base, method, path, {
    key: demoKey,
    body,
    idempotencyKey: method === 'GET' ? undefined : randomUUID(),
  });
}

async function ticket(id: string): Promise<any> {
  const answer = await call('GET', `/v1/discrepancies/${id}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

async function latestRun(): Promise<any> {
  return (await call('GET', '/v1/reconciliation/runs?limit=1')).body.data[0];
}

describe('from a fresh start, in the console', () => {
  it('books a bank fee in two clicks, the next run leaves it resolved, and a suggestion matches another', {
    timeout: 180_000,
  }, async () => {
    expect(demoKey, api.tail()).toMatch(/^ldg_/);
    const open = (await call('GET', '/v1/discrepancies?status=open&kind=missing_in_ledger')).body.data;
    const fee = open.find((found: any) => found.amount === '-795');
    const deposit = open.find((found: any) => found.amount === '8900');
    expect(fee, JSON.stringify(open)).toBeDefined();
    expect(deposit, JSON.stringify(open)).toBeDefined();
    const firstRun = await latestRun();

    const { page } = browser;
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400)
        refused.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
    await page.goto(`${base}/console/#/discrepancies`);
    await expect.poll(() => browser.focusedId()).toBe('api-key');
    await page.keyboard.type(demoKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Discrepancy queue' }).waitFor();
    await page.locator(`a[href="#/discrepancies/${fee.id}"]`).waitFor();
    await browser.screenshot('first-start-01-queue');

    // The fee: open it, choose the expense account, book it. Two clicks on the ticket page.
    await page.locator(`a[href="#/discrepancies/${fee.id}"]`).click();
    await page.getByTestId('adjust-account').waitFor();
    await browser.screenshot('first-start-02-fee-ticket');
    await page.getByTestId('adjust-account').selectOption('expenses:bank-fees');
    await page.getByTestId('adjust-submit').click();
    await page.getByTestId('adjust-booked').waitFor();
    await browser.screenshot('first-start-03-fee-booked');
    const booked = await ticket(fee.id);
    expect(booked.status).toBe('resolved');
    const bookedTransaction = booked.history.find((event: any) => event.changes?.transactionId)?.changes.transactionId;
    expect(bookedTransaction).toBeDefined();

    // The next run, started from the Runs page: it finds the fee's line matched and leaves the ticket be.
    await page.getByRole('link', { name: 'Reconciliation runs', exact: true }).click();
    await page.getByRole('button', { name: 'Run reconciliation now' }).click();
    await expect
      .poll(
        async () => {
          const run = await latestRun();
          return run.id !== firstRun.id && (run.status === 'completed' || run.status === 'failed') ? run.status : '';
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe('completed');
    await page.getByRole('button', { name: 'Run reconciliation now' }).waitFor();
    await browser.screenshot('first-start-04-next-run');
    const afterRun = await ticket(fee.id);
    expect(afterRun).toMatchObject({ status: 'resolved', version: booked.version });
    expect((await latestRun()).stats).toMatchObject({ opened: 0, reopened: 0 });

    // The deposit: its first suggestion is the ledger's entry booked under another reference.
    const suggestions = (await call('GET', `/v1/discrepancies/${deposit.id}/candidates`)).body.data;
    expect(suggestions.length, JSON.stringify(suggestions)).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Discrepancies', exact: true }).click();
    await page.locator(`a[href="#/discrepancies/${deposit.id}"]`).click();
    const first = page.getByTestId('candidate').first();
    await first.waitFor();
    expect(await first.textContent()).toContain(suggestions[0].description ?? suggestions[0].externalRef);
    await browser.screenshot('first-start-05-suggestions');
    await first.getByTestId('candidate-match').click();
    await expect.poll(async () => (await ticket(deposit.id)).status, { timeout: 20_000 }).toBe('resolved');
    await page.getByText('Matched and resolved.').waitFor();
    await browser.screenshot('first-start-06-matched');
    const matches = (await call('GET', `/v1/matches?transaction=${suggestions[0].transactionId}`)).body.data;
    expect(matches).toHaveLength(1);

    // Every request the console made was answered; the browser's own favicon request is not one of them.
    expect(refused).toEqual([]);
    expect(browser.errors.filter((message) => !message.startsWith('Failed to load resource'))).toEqual([]);
    expect(api.errorLines, api.tail()).toBe(0);
  });
});
