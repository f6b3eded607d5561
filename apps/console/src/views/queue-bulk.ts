import { html, type TemplateResult } from 'lit-html';
import { api } from '../api-client';
import { apiPath } from '../api-path';
import type { Ticket, TicketBulkResult as BulkResult } from '../api-types';
import { explainError, notice } from './states';

type BulkChange = { owner?: string; status?: 'acknowledged' | 'resolved' | 'ignored'; note?: string };

/** The outcome of the last bulk change, shown once by the queue read again after it. */
let flash: string | undefined;

/** Tickets one bulk change may name (the API's bound). */
export const BULK_TICKETS_MAX = 500;

/** What a bulk change did, in words: how many changed, and why the others did not. */
function outcomeText(results: BulkResult[], done: string): string {
  const count = (outcome: BulkResult['outcome']) => results.filter((result) => result.outcome === outcome).length;
  const refused = results.find((result) => result.outcome === 'refused');
  const parts = [`${done} ${count('updated')} of ${results.length} tickets.`];
  if (count('unchanged')) parts.push(`${count('unchanged')} already so.`);
  if (refused) parts.push(`${count('refused')} refused (${refused.error?.message ?? 'not allowed'}).`);
  if (count('not_found')) parts.push(`${count('not_found')} not found.`);
  return parts.join(' ');
}

/**
 * The queue's selection and its bulk bar: checkboxes on the rows, "assign to" and "set status" for the
 * selected tickets, one request each (POST /v1/discrepancies/bulk). After a change the queue is read again,
 * and the outcome is shown above it.
 */
export function queueBulk(redraw: () => void, reload: () => void) {
  const selected = new Set<string>();
  let busy = false;
  let outcome: TemplateResult = notice(flash);
  flash = undefined;

  const toggle = (id: string) => (event: Event) => {
    const box = event.currentTarget as HTMLInputElement;
    if (box.checked && selected.size < BULK_TICKETS_MAX) selected.add(id);
    else selected.delete(id);
    box.checked = selected.has(id);
    redraw();
  };
  // The rows are drawn once per page: the page's boxes are set here, as a click on each would.
  const toggleAll = (event: Event) => {
    const all = event.currentTarget as HTMLInputElement;
    const boxes = all.closest('table')?.querySelectorAll<HTMLInputElement>('tbody input[data-ticket]') ?? [];
    for (const box of boxes) {
      const id = box.dataset.ticket!;
      if (all.checked && selected.size < BULK_TICKETS_MAX) selected.add(id);
      if (!all.checked) selected.delete(id);
      box.checked = selected.has(id);
    }
    redraw();
  };
  const send = async (change: BulkChange, done: string) => {
    if (busy || selected.size === 0) return;
    busy = true;
    redraw();
    try {
      const answer = await api.post<{ results: BulkResult[] }>(apiPath`/v1/discrepancies/bulk`, {
        ids: [...selected],
        ...change,
      });
      flash = outcomeText(answer.results, done);
      busy = false;
      reload();
      return;
    } catch (error) {
      outcome = notice(explainError(error), 'error');
    }
    busy = false;
    redraw();
  };
  const assign = (event: SubmitEvent) => {
    event.preventDefault();
    const owner = String(new FormData(event.currentTarget as HTMLFormElement).get('bulk-owner') ?? '').trim();
    void send({ owner }, `Assigned to ${owner}:`);
  };
  const setStatus = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const status = String(form.get('bulk-status')) as 'acknowledged' | 'resolved' | 'ignored';
    const note = String(form.get('bulk-note') ?? '').trim();
    void send({ status, ...(note ? { note } : {}) }, `Set to ${status}:`);
  };

  return {
    /** The checkbox of one row. */
    cell: (ticket: Ticket) =>
      html`<td><input type="checkbox" aria-label=${`Select ${ticket.summary}`} data-ticket=${ticket.id}
        .checked=${selected.has(ticket.id)} @change=${toggle(ticket.id)} /></td>`,
    header: html`<th scope="col"><input type="checkbox" aria-label="Select every ticket on this page"
      @change=${toggleAll} /></th>`,
    bar: (): TemplateResult => html`<section class="bulk" aria-label="Change the selected tickets"
        aria-busy=${busy ? 'true' : 'false'}>
      <div id="bulk-outcome">${outcome}</div>
      <p role="status">${selected.size} selected</p>
      <form class="filters" @submit=${assign}>
        <div class="field"><label for="bulk-owner">Assign to</label>
          <input id="bulk-owner" name="bulk-owner" required maxlength="200" size="14" /></div>
        <button type="submit" ?disabled=${selected.size === 0}>Assign selected</button>
      </form>
      <form class="filters" @submit=${setStatus}>
        <div class="field"><label for="bulk-status">Set status</label>
          <select id="bulk-status" name="bulk-status">
            <option value="acknowledged">Acknowledged</option><option value="resolved">Resolved</option>
            <option value="ignored">Ignored</option></select></div>
        <div class="field"><label for="bulk-note">Note (needed to resolve or ignore)</label>
          <input id="bulk-note" name="bulk-note" maxlength="4000" size="24" /></div>
        <button type="submit" ?disabled=${selected.size === 0}>Set status of selected</button>
      </form>
    </section>`,
  };
}
