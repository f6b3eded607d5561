import { apiPath } from '../api-path';
import { html, type TemplateResult } from 'lit-html';
import { api } from '../api-client';
import type { PaymentOrderWithSteps } from '../api-types';
import { evidenceText } from '../evidence';
import { formatMinor, humanize } from '../format';
import type { Page } from '../page';
import { link } from '../router';
import { counterpartyName, paymentStatus } from './payment-status';
import { instant, timelineView } from './payment-timeline';
import { failure, loading } from './states';

/** Past its step's deadline: said first, with what the last try got, and where its ticket is worked. */
function stuckBanner(order: PaymentOrderWithSteps): TemplateResult {
  if (!order.stuck) return html``;
  return html`<div class="banner" role="alert">
    <p><strong>Stuck:</strong> this order is ${humanize(order.status)} past its deadline of ${instant(order.deadlineAt)}
      (${order.attempts} attempt${order.attempts === 1 ? '' : 's'}).</p>
    <p>Last error: ${order.lastError ?? 'none recorded'}</p>
    <p>A <a href=${link('/discrepancies', undefined, { kind: 'stuck_payment_order' })}>stuck payment order ticket</a>
      is open for it (or will be after the next reconciliation run).</p>
  </div>`;
}

/** The counterparty's other details (IBAN, bank code…) beside the name. */
function counterpartyDetails(order: PaymentOrderWithSteps): string {
  const rest = Object.entries(order.counterparty).filter(([key]) => key !== 'name');
  return rest.map(([key, value]) => `${key}: ${evidenceText(value)}`).join(', ');
}

/** The console has no transaction page: the ledger's ids are shown for looking up in the API or the CLI. */
function ledgerId(id: string | null): TemplateResult | string {
  return id ? html`<code>${id}</code>` : '—';
}

function summary(order: PaymentOrderWithSteps): TemplateResult {
  const details = counterpartyDetails(order);
  const more = details ? html` <span class="muted">(${details})</span>` : '';
  return html`<dl class="summary">
    <dt>Status</dt><dd>${paymentStatus(order)}</dd>
    <dt>Amount</dt><dd>${formatMinor(order.amount, order.currency)} (${order.direction})</dd>
    <dt>Source account</dt><dd><a href=${link('/accounts', order.sourceAccount)}>${order.sourceAccount}</a></dd>
    <dt>Counterparty</dt><dd>${counterpartyName(order)}${more}</dd>
    <dt>Connector</dt><dd>${order.connector}</dd>
    <dt>External ref</dt><dd>${order.externalRef ?? '—'}</dd>
    <dt>Description</dt><dd>${order.description ?? '—'}</dd>
    <dt>Provider</dt><dd>${order.provider.status ?? 'no answer yet'}${
      order.provider.paymentId ? html`, payment <code>${order.provider.paymentId}</code>` : ''
    }</dd>
    <dt>Attempts</dt><dd>${order.attempts}</dd>
    <dt>Next attempt</dt><dd>${instant(order.nextAttemptAt)}</dd>
    <dt>Deadline</dt><dd>${instant(order.deadlineAt)}</dd>
    <dt>Last error</dt><dd>${order.lastError ?? '—'}</dd>
    <dt>Hold</dt><dd>${ledgerId(order.holdId)}</dd>
    <dt>Settle transaction</dt><dd>${ledgerId(order.settleTransactionId)}</dd>
    <dt>Return transaction</dt><dd>${ledgerId(order.returnTransactionId)}</dd>
    <dt>Created</dt><dd>${instant(order.createdAt)} <span class="muted by">by ${order.actor}</span></dd>
    <dt>Updated</dt><dd>${instant(order.updatedAt)}</dd>
    <dt>Id</dt><dd><code>${order.id}</code></dd>
  </dl>`;
}

const DIRECTION_LABELS = { payout: 'Payout', refund: 'Refund' } as const;

export const paymentPage: Page = async (context) => {
  const id = context.route.param;
  const back = html`<p><a href=${link('/payments')}>← All payment orders</a></p>`;
  context.render(html`${back}<h1 tabindex="-1">Payment order</h1>${loading('the payment order')}`);
  let order: PaymentOrderWithSteps;
  try {
    order = await api.get<PaymentOrderWithSteps>(apiPath`/v1/payment-orders/${id}`);
  } catch (error) {
    context.render(html`${back}<h1 tabindex="-1">Payment order</h1>${failure(error, context.reload)}`);
    return;
  }
  const amount = formatMinor(order.amount, order.currency);
  context.render(html`${back}
    <h1 tabindex="-1">${DIRECTION_LABELS[order.direction]} of ${amount} to ${counterpartyName(order)}</h1>
    ${stuckBanner(order)}
    ${summary(order)}
    ${timelineView(order.steps)}`);
};
