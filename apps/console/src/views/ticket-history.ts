import { html, type TemplateResult } from 'lit-html';
import type { TicketEvent } from '../api-types';
import { formatInstant, humanize } from '../format';

function changeText(changes: Record<string, unknown>): string {
  return Object.entries(changes)
    .map(([field, value]) => {
      const change = value as { from?: unknown; to?: unknown } | null;
      return change && typeof change === 'object' && 'to' in change
        ? `${field}: ${String(change.from ?? '—')} → ${String(change.to)}`
        : `${field}: ${JSON.stringify(value)}`;
    })
    .join('; ');
}

export function historyView(history: TicketEvent[]): TemplateResult {
  return html`<section aria-labelledby="history-heading">
    <h2 id="history-heading">History</h2>
    <table class="compact history">
      <thead><tr>
        <th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Changes</th>
        <th scope="col">Note</th>
      </tr></thead>
      <tbody>
        ${history.map(
          (event) =>
            html`<tr><td>${formatInstant(event.at)}</td><td>${event.actor}</td><td>${humanize(event.action)}</td>
              <td>${changeText(event.changes)}</td><td>${event.note ?? ''}</td></tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}
