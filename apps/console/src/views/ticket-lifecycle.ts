import { html, type TemplateResult } from 'lit-html';
import type { Ticket } from '../api-types';

/** What the reopen and comment forms ask the ticket page to do; each answers whether it was done. */
export interface TicketLifecycleActions {
  reopen(note: string): Promise<boolean>;
  comment(note: string): Promise<boolean>;
}

/** The text of a 412 STALE_VERSION: someone (or a run) changed the ticket after it was shown. */
export const STALE_TICKET_TEXT =
  'This ticket changed since you opened it: it is shown again as it is now. Check it, then try again.';

function sent(event: SubmitEvent, name: string): { form: HTMLFormElement; note: string } {
  event.preventDefault();
  const form = event.currentTarget as HTMLFormElement;
  return { form, note: String(new FormData(form).get(name) ?? '').trim() };
}

/** Resolved and ignored tickets can be worked again, with a note saying why. */
export function reopenForm(ticket: Ticket, actions: TicketLifecycleActions): TemplateResult {
  if (ticket.status !== 'resolved' && ticket.status !== 'ignored') return html``;
  const submit = async (event: SubmitEvent) => {
    const { form, note } = sent(event, 'reopen-note');
    if (await actions.reopen(note)) form.reset();
  };
  return html`<form class="action" @submit=${submit}>
    <h3>Reopen</h3>
    <label for="reopen-note">Why it needs work again (required)</label>
    <textarea id="reopen-note" name="reopen-note" required maxlength="4000" rows="2"></textarea>
    <button type="submit">Reopen</button>
  </form>`;
}

/** A comment, on a ticket of any status; the text is kept until the server has stored it. */
export function commentForm(actions: TicketLifecycleActions): TemplateResult {
  const submit = async (event: SubmitEvent) => {
    const { form, note } = sent(event, 'comment');
    if (await actions.comment(note)) form.reset();
  };
  return html`<form class="action" @submit=${submit}>
    <h3>Comment</h3>
    <label for="comment">Comment</label>
    <textarea id="comment" name="comment" required maxlength="4000" rows="2"></textarea>
    <button type="submit">Add comment</button>
  </form>`;
}

/**
 * The Idempotency-Key of a comment: the same one while the same text is sent again (a retry after a
 * timeout is stored once), a new one for other text or once the comment is stored.
 */
export function commentKeys(): { keyFor(note: string): string; stored(): void } {
  let pending: { note: string; key: string } | undefined;
  return {
    keyFor(note) {
      if (pending?.note !== note) pending = { note, key: crypto.randomUUID() };
      return pending.key;
    },
    stored() {
      pending = undefined;
    },
  };
}
