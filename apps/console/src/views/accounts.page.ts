import { apiPath } from '../api-path';
import { html, type TemplateResult } from 'lit-html';
import { type ListPage, api } from '../api-client';
import type { Account } from '../api-types';
import { formatMinor } from '../format';
import type { Page } from '../page';
import { link } from '../router';
import { pagedSection } from './paged-section';
import { empty } from './states';

export const ACCOUNTS_PAGE_SIZE = 100;

function accountRows(accounts: Account[]): TemplateResult {
  return html`<table class="compact">
    <caption class="visually-hidden">Accounts by code</caption>
    <thead><tr>
      <th scope="col">Code</th><th scope="col">Name</th><th scope="col">Normal balance</th>
      <th scope="col" class="number">Posted</th><th scope="col" class="number">Pending</th>
      <th scope="col" class="number">Available</th>
    </tr></thead>
    <tbody>
      ${accounts.map(
        (account) => html`<tr><td><a href=${link('/accounts', account.code)}>${account.code}</a></td>
          <td>${account.name ?? ''}</td><td>${account.normalBalance}</td>
          <td class="number">${formatMinor(account.balances.posted, account.currency)}</td>
          <td class="number">${formatMinor(account.balances.pending, account.currency)}</td>
          <td class="number">${formatMinor(account.balances.available, account.currency)}</td></tr>`,
      )}
    </tbody>
  </table>`;
}

export const accountsPage: Page = async (context) => {
  const prefix = context.route.query.get('codePrefix') ?? '';
  let section: TemplateResult = html``;
  const filter = (event: SubmitEvent) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget as HTMLFormElement).get('codePrefix') ?? '').trim();
    context.navigate(link('/accounts', undefined, { codePrefix: value }));
  };
  const draw = () =>
    context.render(html`<h1 tabindex="-1">Accounts</h1>
      <form class="filters" @submit=${filter}>
        <div class="field"><label for="code-prefix">Code starts with</label>
          <input id="code-prefix" name="codePrefix" .value=${prefix} /></div>
        <button type="submit">Filter</button>
      </form>
      ${section}`);
  await pagedSection<Account>({
    what: 'accounts',
    load: (cursor) =>
      api.get<ListPage<Account>>(apiPath`/v1/accounts`, {
        cursor,
        codePrefix: prefix,
        limit: String(ACCOUNTS_PAGE_SIZE),
      }),
    rows: accountRows,
    empty: empty(
      prefix
        ? `No account code starts with "${prefix}".`
        : 'No accounts yet: an admin key creates them with POST /v1/accounts.',
    ),
    update: (next) => {
      section = next;
      draw();
    },
  });
};
