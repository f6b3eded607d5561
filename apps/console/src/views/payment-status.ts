import { html, type TemplateResult } from 'lit-html';
import type { PaymentOrder } from '../api-types';
import { humanize } from '../format';

const STUCK_BADGE = html` <span class="badge overdue">Stuck</span>`;

/** The order's status, and "Stuck" beside it when it is past its step's deadline. */
export function paymentStatus(order: PaymentOrder): TemplateResult {
  return html`<span class="status status-${order.status}">${humanize(order.status)}</span>${
    order.stuck ? STUCK_BADGE : ''
  }`;
}

/** The counterparty's name, as the order was given it (the API keeps the counterparty as it came). */
export function counterpartyName(order: PaymentOrder): string {
  const name = order.counterparty.name;
  return typeof name === 'string' && name !== '' ? name : '—';
}
