import { apiPath } from '../api-path';
import { html, type TemplateResult } from 'lit-html';
import { type ListPage, api } from '../api-client';
import type { Account, AccountEntry } from '../api-types';
import { lineChart } from '../charts/line-chart';
import { currencyExponent, formatInstant, formatMinor } from '../format';
import type { Page } from '../page';
import { link } from '../router';
import { pagedSection } from './paged-section';
import { empty, explainError, failure, loading } from './states';

export const ENTRIES_PAGE_SIZE = 100;

function entryRows(account: Account) {
  return (entries: AccountEntry[]): TemplateResult => html`<table class="compact">
    <caption class="visually-hidden">Entries, newest first, with the posted balance after each</caption>
    <thead><tr>
      <th scope="col">Effective</th><th scope="col">Transaction</th><th scope="col">Direction</th>
      <th scope="col" class="number">Amount</th><th scope="col" class="number">Balance after</th>
    </tr></thead>
    <tbody>
      ${entries.map(
        (entry) => html`<tr><td>${formatInstant(entry.effectiveAt)}</td>
          <td><code>${entry.transactionId}</code>${entry.pending ? ' (hold)' : ''}</td><td>${entry.direction}</td>
          <td class="number">${formatMinor(entry.amount, entry.currency)}</td>
          <td class="number">${formatMinor(entry.postedBalance, account.currency)}</td></tr>`,
      )}
    </tbody>
  </table>`;
}

/** The running balance of the entries on screen; plotted as numbers (a chart needs no exactness, the table has it). */
function balanceChart(account: Account, entries: AccountEntry[]): TemplateResult {
  if (entries.length === 0) return html``;
  const scale = 10 ** currencyExponent(account.currency);
  return lineChart({
    title: `Posted balance over time (the ${entries.length} entries on this page), ${account.currency}`,
    series: [
      {
        name: 'posted balance',
        points: entries.map((entry) => ({
          at: Date.parse(entry.effectiveAt),
          value: Number(entry.postedBalance) / scale,
        })),
      },
    ],
    formatValue: (value) => value.toLocaleString('en', { maximumFractionDigits: 0 }),
  });
}

function balanceAsOf(account: Account): TemplateResult {
  const output = (event: SubmitEvent) => (event.currentTarget as HTMLFormElement).querySelector('output')!;
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const target = output(event);
    const day = String(new FormData(event.currentTarget as HTMLFormElement).get('as-of'));
    try {
      const balance = await api.get<{ posted: string }>(apiPath`/v1/accounts/${account.code}/balance`, {
        asOf: `${day}T23:59:59.999Z`,
      });
      const posted = formatMinor(balance.posted, account.currency);
      target.textContent = `Posted balance at the end of ${day} (UTC): ${posted}`;
    } catch (error) {
      target.textContent = explainError(error);
    }
  };
  return html`<form class="filters" @submit=${submit}>
    <div class="field"><label for="as-of">Balance as of</label>
      <input id="as-of" type="date" name="as-of" required /></div>
    <button type="submit">Show</button>
    <output aria-live="polite"></output>
  </form>`;
}

export const accountPage: Page = async (context) => {
  const code = context.route.param;
  const back = html`<p><a href=${link('/accounts')}>← All accounts</a></p>`;
  context.render(html`${back}<h1 tabindex="-1">${code}</h1>${loading('the account')}`);
  let account: Account;
  try {
    account = await api.get<Account>(apiPath`/v1/accounts/${code}`);
  } catch (error) {
    context.render(html`${back}<h1 tabindex="-1">${code}</h1>${failure(error, context.reload)}`);
    return;
  }
  let section: TemplateResult = html``;
  let entries: AccountEntry[] = [];
  const draw = () =>
    context.render(html`${back}
      <h1 tabindex="-1">${account.code}${account.name ? ` — ${account.name}` : ''}</h1>
      <dl class="summary">
        <dt>Posted</dt><dd>${formatMinor(account.balances.posted, account.currency)}</dd>
        <dt>Pending</dt><dd>${formatMinor(account.balances.pending, account.currency)}</dd>
        <dt>Available</dt><dd>${formatMinor(account.balances.available, account.currency)}</dd>
        <dt>Normal balance</dt><dd>${account.normalBalance}</dd>
      </dl>
      ${balanceAsOf(account)}
      ${balanceChart(account, entries)}
      <h2>Entries</h2>
      ${section}`);
  await pagedSection<AccountEntry>({
    what: 'entries',
    load: (cursor) =>
      api.get<ListPage<AccountEntry>>(apiPath`/v1/accounts/${code}/entries`, {
        cursor,
        limit: String(ENTRIES_PAGE_SIZE),
      }),
    rows: entryRows(account),
    empty: empty('No entries on this account yet.'),
    loaded: (items) => (entries = items),
    update: (next) => {
      section = next;
      draw();
    },
  });
};
