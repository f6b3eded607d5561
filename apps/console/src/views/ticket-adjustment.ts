import { apiPath } from '../api-path';
import { html, type TemplateResult } from 'lit-html';
import { type ListPage, api } from '../api-client';
import type { Account, Ticket, TicketEvent } from '../api-types';
import { formatMinor } from '../format';
import { link } from '../router';
import { explainError } from './states';

// "Book it": a ticket whose statement line the ledger lacks (or lacks part of) is fixed by booking it
// against an account the person picks; the API posts, matches and resolves in one go.

type TicketWithHistory = Ticket & { history: TicketEvent[] };

/** Accounts offered in the picker: a few pages of the currency's accounts, enough for any chart of accounts. */
const ACCOUNT_PAGES_MAX = 5;
const ACCOUNTS_PAGE_SIZE = 200;

const PROFIT_AND_LOSS = /^(expense|expenses|income|incomes|revenue|revenues)(:|$)/i;
const EXPENSE = /^expenses?(:|$)/i;

export function isAdjustable(ticket: Ticket): boolean {
  const working = ticket.status === 'open' || ticket.status === 'acknowledged';
  return working && ticket.currency !== null && ['missing_in_ledger', 'amount_mismatch'].includes(ticket.kind);
}

/**
 * Expense and income accounts first (money out of the bank usually books to an expense, money in to an
 * income, so that kind leads), the ticket's own account left out, then every other account of the currency.
 */
function ordered(accounts: Account[], ticket: Ticket): { likely: Account[]; others: Account[] } {
  const moneyOut = (ticket.amount ?? '').startsWith('-');
  const rank = (account: Account) => (EXPENSE.test(account.code) === moneyOut ? 0 : 1);
  const usable = accounts.filter((account) => account.code !== ticket.accountCode);
  const likely = usable
    .filter((account) => PROFIT_AND_LOSS.test(account.code))
    .sort((a, b) => rank(a) - rank(b) || a.code.localeCompare(b.code));
  const others = usable
    .filter((account) => !PROFIT_AND_LOSS.test(account.code))
    .sort((a, b) => a.code.localeCompare(b.code));
  return { likely, others };
}

async function accountsIn(currency: string): Promise<Account[]> {
  const accounts: Account[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < ACCOUNT_PAGES_MAX; page++) {
    const next = await api.get<ListPage<Account>>(apiPath`/v1/accounts`, {
      currency,
      cursor,
      limit: String(ACCOUNTS_PAGE_SIZE),
    });
    accounts.push(...next.data);
    if (next.nextCursor === null) break;
    cursor = next.nextCursor;
  }
  return accounts;
}

/** The booking that resolved the ticket, as its history names it. */
function bookingOf(ticket: TicketWithHistory): { transactionId: string; counterAccount: string } | undefined {
  const event = ticket.history.findLast((entry) => typeof entry.changes.transactionId === 'string');
  if (event === undefined) return undefined;
  return {
    transactionId: String(event.changes.transactionId),
    counterAccount: String(event.changes.counterAccount ?? ''),
  };
}

function bookedView(ticket: TicketWithHistory): TemplateResult {
  const booking = bookingOf(ticket);
  if (booking === undefined) return html``;
  const where = booking.counterAccount || ticket.accountCode || '';
  return html`<p class="notice ok booked" data-testid="adjust-booked">
    Resolved by booking it: transaction
    <a href=${link('/accounts', where)} data-testid="adjust-transaction"><code>${booking.transactionId}</code></a>
    against <a href=${link('/accounts', where)}>${where}</a>.
  </p>`;
}

function options(accounts: Account[]): TemplateResult[] {
  return accounts.map(
    (account) =>
      html`<option value=${account.code}>${account.code}${account.name ? ` (${account.name})` : ''}</option>`,
  );
}

/**
 * The "Book it" part of the ticket page, given whether the key may work tickets, a redraw of the page, and
 * the page's way of making a change (one at a time, then the ticket read again). The accounts of the
 * ticket's currency are read once, when the form is first shown.
 */
export function adjustmentPanel(
  mayWork: boolean,
  redraw: () => void,
  perform: (work: () => Promise<unknown>, done: string) => void,
): (ticket: TicketWithHistory) => TemplateResult {
  let accounts: Account[] | undefined;
  let problem: string | undefined;
  let loading = false;

  const load = (currency: string) => {
    loading = true;
    accountsIn(currency)
      .then((found) => {
        accounts = found;
      })
      .catch((error: unknown) => {
        problem = `The accounts could not be read: ${explainError(error)}`;
      })
      .finally(redraw);
  };

  return (ticket) => {
    if (!isAdjustable(ticket)) return bookedView(ticket);
    if (!mayWork) return html``;
    if (!loading) load(ticket.currency!);
    const what =
      ticket.kind === 'amount_mismatch'
        ? `the difference of ${formatMinor(ticket.amount, ticket.currency)} between the statement and the ledger`
        : `the line's ${formatMinor(ticket.amount, ticket.currency)}`;
    const submit = (event: SubmitEvent) => {
      event.preventDefault();
      const counterAccount = String(new FormData(event.currentTarget as HTMLFormElement).get('counterAccount') ?? '');
      perform(
        () => api.post(apiPath`/v1/discrepancies/${ticket.id}/adjustments`, { counterAccount }),
        `Booked against ${counterAccount}: the ticket is resolved.`,
      );
    };
    const { likely, others } = ordered(accounts ?? [], ticket);
    const picker =
      accounts === undefined
        ? html`<p role="status">${problem ?? 'Loading accounts…'}</p>`
        : likely.length + others.length === 0
          ? html`<p>No other account holds ${ticket.currency}: an admin key creates one with POST /v1/accounts.</p>`
          : html`<form class="action adjust" @submit=${submit}>
              <label for="adjust-account">Book against</label>
              <select id="adjust-account" name="counterAccount" required data-testid="adjust-account">
                ${likely.length ? html`<optgroup label="Expenses and income">${options(likely)}</optgroup>` : ''}
                ${others.length ? html`<optgroup label="Other accounts">${options(others)}</optgroup>` : ''}
              </select>
              <button type="submit" data-testid="adjust-submit">Book it</button>
            </form>`;
    return html`<section aria-labelledby="adjust-heading">
      <h2 id="adjust-heading">Book it</h2>
      <p>Book ${what} into the ledger on ${ticket.accountCode ?? 'the source account'}: the ticket is resolved
        with the transaction, and the next run finds the line matched.</p>
      ${picker}
    </section>`;
  };
}
