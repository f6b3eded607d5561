import { apiPath } from '../api-path';
import { html, type TemplateResult } from 'lit-html';
import { type ListPage, type Query, api } from '../api-client';
import { PAYMENT_ORDER_STATUSES, type PaymentOrder, type PaymentOrderCounts } from '../api-types';
import { formatInstant, formatMinor, humanize } from '../format';
import type { Page } from '../page';
import { link } from '../router';
import { pagedSection } from './paged-section';
import { counterpartyName, paymentStatus } from './payment-status';
import { option } from './select-option';
import { empty, failure } from './states';

export const PAYMENTS_PAGE_SIZE = 50;
/** Stuck orders are few and each needs a look: a shorter page keeps the full list in view below them. */
export const STUCK_PAGE_SIZE = 20;

function countsBar(counts: PaymentOrderCounts | Error | undefined): TemplateResult {
  if (counts === undefined) return html`<p class="counts" role="status">Counting payment orders…</p>`;
  if (counts instanceof Error) return failure(counts);
  return html`<ul class="counts" aria-label="Payment orders by status">
    ${PAYMENT_ORDER_STATUSES.map(
      (status) => html`<li><a href=${link('/payments', undefined, { status })}>${humanize(status)}
        <strong>${counts.byStatus[status] ?? 0}</strong></a></li>`,
    )}
    <li class="overdue">stuck <strong>${counts.stuck}</strong></li>
  </ul>`;
}

function statusFilter(status: string | undefined, apply: (status: string | undefined) => void): TemplateResult {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const chosen = new FormData(event.currentTarget as HTMLFormElement).get('status');
    apply(chosen ? String(chosen) : undefined);
  };
  return html`<form class="filters" @submit=${submit} aria-label="Filter payment orders">
    <div class="field"><label for="filter-payment-status">Status</label>
      <select id="filter-payment-status" name="status">${option('', 'Any', status)}
        ${PAYMENT_ORDER_STATUSES.map((each) => option(each, humanize(each), status))}</select></div>
    <button type="submit">Apply filter</button>
    <a href="#/payments">Clear</a>
  </form>`;
}

function orderRows(caption: string) {
  return (orders: PaymentOrder[]): TemplateResult => html`<table class="compact payments">
    <caption class="visually-hidden">${caption}</caption>
    <thead><tr>
      <th scope="col">Created</th><th scope="col" class="number">Amount</th><th scope="col">Source account</th>
      <th scope="col">Counterparty</th><th scope="col">Connector</th><th scope="col">Status</th>
      <th scope="col">Provider status</th><th scope="col" class="number">Attempts</th><th scope="col">Last error</th>
    </tr></thead>
    <tbody>
      ${orders.map(
        (order) => html`<tr class=${order.stuck ? 'overdue' : ''}>
          <td><a href=${link('/payments', order.id)}>${formatInstant(order.createdAt)}</a></td>
          <td class="number">${formatMinor(order.amount, order.currency)}</td>
          <td><a href=${link('/accounts', order.sourceAccount)}>${order.sourceAccount}</a></td>
          <td>${counterpartyName(order)}</td>
          <td>${order.connector}</td>
          <td>${paymentStatus(order)}</td>
          <td>${order.provider.status ?? '—'}</td>
          <td class="number">${order.attempts}</td>
          <td>${order.lastError ?? ''}</td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}

function orders(query: Query, limit: number): (cursor: string | undefined) => Promise<ListPage<PaymentOrder>> {
  return (cursor) =>
    api.get<ListPage<PaymentOrder>>(apiPath`/v1/payment-orders`, { ...query, cursor, limit: String(limit) });
}

/** The stuck orders first (each has a ticket waiting), then every order, newest first, filtered by status. */
export const paymentsPage: Page = async (context) => {
  // A status the API does not know (a hand-edited link) lists every order rather than failing.
  const status = PAYMENT_ORDER_STATUSES.find((each) => each === context.route.query.get('status'));
  let counts: PaymentOrderCounts | Error | undefined;
  let stuck: TemplateResult = html``;
  let all: TemplateResult = html``;
  const draw = () =>
    context.render(html`<h1 tabindex="-1">Payment orders</h1>
      ${countsBar(counts)}
      <section aria-labelledby="stuck-heading">
        <h2 id="stuck-heading" tabindex="-1">Stuck orders</h2>
        <p class="muted">Past their step's deadline: each has a
          <a href=${link('/discrepancies', undefined, { kind: 'stuck_payment_order' })}>stuck payment order ticket</a>.
        </p>
        ${stuck}
      </section>
      <section aria-labelledby="all-heading">
        <h2 id="all-heading">All orders</h2>
        ${statusFilter(status, (next) => context.navigate(link('/payments', undefined, { status: next })))}
        ${all}
      </section>`);
  draw();
  void api
    .get<PaymentOrderCounts>(apiPath`/v1/payment-orders/counts`)
    .then(
      (answer) => (counts = answer),
      (error: Error) => (counts = error),
    )
    .then(draw);
  await Promise.all([
    pagedSection<PaymentOrder>({
      what: 'stuck orders',
      load: orders({ stuck: 'true' }, STUCK_PAGE_SIZE),
      rows: orderRows('Stuck payment orders, newest first'),
      empty: empty('No order is stuck: every one is within its deadline or finished.'),
      update: (next) => {
        stuck = next;
        draw();
      },
    }),
    pagedSection<PaymentOrder>({
      what: 'payment orders',
      load: orders({ status }, PAYMENTS_PAGE_SIZE),
      rows: orderRows('Payment orders, newest first'),
      empty: empty(status ? `No payment order is ${humanize(status)}.` : 'No payment order yet.'),
      update: (next) => {
        all = next;
        draw();
      },
    }),
  ]);
};
