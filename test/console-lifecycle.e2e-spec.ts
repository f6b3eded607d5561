import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type ConsoleBrowser, openConsoleBrowser } from './support/console-browser';
import { type TicketTenant, getTicket, tenantWithTickets } from './support/ticket-fixtures';

// The ticket lifecycle in the console, driven in Chromium: a change made to a ticket someone else changed
// meanwhile is refused and the ticket shown again; a resolved ticket is reopened and commented on; tickets
// selected in the queue are assigned in one go.

let api: ApiHarness;
let browser: ConsoleBrowser;
let team: TicketTenant;

beforeAll(async () => {
  api = await startApi();
  team = await tenantWithTickets(api, 'console lifecycle', 3);
  browser = await openConsoleBrowser();
  const { page } = browser;
  await page.goto(`${api.baseUrl}/console/#/discrepancies`);
  await page.getByLabel('API key').fill(team.key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Discrepancy queue' }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

async function openTicket(ticket: { id: string; summary: string }): Promise<void> {
  await browser.page.goto(`${api.baseUrl}/console/#/discrepancies/${ticket.id}`);
  await browser.page.getByRole('heading', { level: 1, name: ticket.summary }).waitFor();
}

const patch = (id: string, body: unknown) => api.request('PATCH', `/v1/discrepancies/${id}`, { key: team.key, body });

describe('the ticket lifecycle in the console', () => {
  it('says a ticket changed since it was opened, shows it as it is now, then assigns it', {
    timeout: 60_000,
  }, async () => {
    const { page } = browser;
    const ticket = team.tickets[0];
    await openTicket(ticket);
    // Someone else assigns it while it is on the screen.
    expect((await patch(ticket.id, { owner: 'dana' })).status).toBe(200);

    await page.getByLabel('Owner', { exact: true }).fill('erin');
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await page.getByText('This ticket changed since you opened it').waitFor();
    await expect.poll(() => page.locator('dl.summary').textContent()).toContain('dana');
    expect((await getTicket(api, team.key, ticket.id)).owner).toBe('dana');
    await browser.screenshot('lifecycle-01-stale');

    // Read again, the same change goes through.
    await page.getByLabel('Owner', { exact: true }).fill('erin');
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await page.getByText('Assigned to erin.').waitFor();
    expect((await getTicket(api, team.key, ticket.id)).owner).toBe('erin');
  });

  it('reopens a resolved ticket, and adds a comment to it', { timeout: 60_000 }, async () => {
    const { page } = browser;
    const ticket = team.tickets[1];
    expect((await patch(ticket.id, { status: 'resolved', note: 'refunded' })).status).toBe(200);
    await openTicket(ticket);
    await page.getByRole('heading', { name: 'Reopen' }).waitFor();
    await browser.screenshot('lifecycle-02-resolved');
    await page.getByLabel('Why it needs work again (required)').fill('the refund bounced');
    await page.getByRole('button', { name: 'Reopen' }).click();
    await page.getByText('Reopened.').waitFor();
    await expect.poll(() => page.locator('dl.summary').textContent()).toContain('Open');
    const reopened = await getTicket(api, team.key, ticket.id);
    expect(reopened.status).toBe('open');
    expect(reopened.history.at(-1)).toMatchObject({ action: 'reopened', note: 'the refund bounced' });

    await page.getByLabel('Comment', { exact: true }).fill('asked the payer for new details');
    await page.getByRole('button', { name: 'Add comment' }).click();
    await page.getByText('Comment added.').waitFor();
    await page.getByRole('cell', { name: 'asked the payer for new details' }).waitFor();
    expect(await page.getByLabel('Comment', { exact: true }).inputValue()).toBe('');
    const notes = (await getTicket(api, team.key, ticket.id)).history.filter(
      (event: any) => event.note === 'asked the payer for new details',
    );
    expect(notes).toHaveLength(1);
    await browser.screenshot('lifecycle-03-reopened');
  });

  it('assigns the tickets selected in the queue in one go', { timeout: 60_000 }, async () => {
    const { page } = browser;
    const [, second, third] = team.tickets;
    await page.goto(`${api.baseUrl}/console/#/discrepancies`);
    await page.getByRole('heading', { level: 1, name: 'Discrepancy queue' }).waitFor();
    await page.getByLabel(`Select ${second.summary}`, { exact: true }).check();
    await page.getByLabel(`Select ${third.summary}`, { exact: true }).check();
    await page.getByText('2 selected').waitFor();
    await page.getByLabel('Assign to').fill('treasury');
    await page.getByRole('button', { name: 'Assign selected' }).click();
    await page.getByText('Assigned to treasury: 2 of 2 tickets.').waitFor();
    for (const ticket of [second, third]) expect((await getTicket(api, team.key, ticket.id)).owner).toBe('treasury');
    expect((await getTicket(api, team.key, team.tickets[0].id)).owner).toBe('erin');
    await page.getByRole('cell', { name: 'treasury' }).first().waitFor();
    await browser.screenshot('lifecycle-04-bulk-assigned');

    // Every ticket of the page at once, to a status with a note.
    await page.getByLabel('Select every ticket on this page').check();
    await page.getByText('3 selected').waitFor();
    await page.getByLabel('Set status').selectOption('acknowledged');
    await page.getByLabel('Note (needed to resolve or ignore)').fill('on it this week');
    await page.getByRole('button', { name: 'Set status of selected' }).click();
    await page.getByText('Set to acknowledged: 3 of 3 tickets.').waitFor();
    for (const ticket of team.tickets) {
      const now = await getTicket(api, team.key, ticket.id);
      expect(now.status).toBe('acknowledged');
      expect(now.history.at(-1)).toMatchObject({ action: 'acknowledged', note: 'on it this week' });
    }
    expect(browser.errors.filter((message) => !message.startsWith('Failed to load resource'))).toEqual([]);
  });
});
