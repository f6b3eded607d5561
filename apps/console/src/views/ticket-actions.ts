import { html, type TemplateResult } from 'lit-html';
import type { Ticket } from '../api-types';
import { statementLineIds, transactionIds } from '../evidence';
import { type TicketLifecycleActions, commentForm, reopenForm } from './ticket-lifecycle';

/** What the ticket page does when a form is sent: a PATCH of the ticket, a manual match, a reopen, a comment. */
export interface TicketActions extends TicketLifecycleActions {
  update(
    change: { owner?: string; status?: 'acknowledged' | 'resolved' | 'ignored'; note?: string },
    done: string,
  ): void;
  match(body: { statementLines: string[]; entries: { transaction: string; leg?: number }[]; note?: string }): void;
}

function fields(event: SubmitEvent): FormData {
  event.preventDefault();
  return new FormData(event.currentTarget as HTMLFormElement);
}

const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();
const list = (value: string) => value.split(/[\s,]+/).filter(Boolean);

/** `"<transaction id>:1"` -> leg 1 of that transaction; a bare id lets the server pick the leg on the account. */
function entryOf(member: string): { transaction: string; leg?: number } {
  const [transaction = '', leg] = member.split(':');
  return leg === undefined ? { transaction } : { transaction, leg: Number(leg) };
}

function assignForm(ticket: Ticket, actions: TicketActions): TemplateResult {
  const submit = (event: SubmitEvent) => {
    const owner = text(fields(event), 'owner');
    actions.update({ owner }, `Assigned to ${owner}.`);
  };
  return html`<form class="action" @submit=${submit}>
    <h3>Assign</h3>
    <label for="owner">Owner</label>
    <input id="owner" name="owner" required maxlength="200" .value=${ticket.owner} />
    <button type="submit">Assign</button>
  </form>`;
}

function closeForm(actions: TicketActions): TemplateResult {
  const submit = (event: SubmitEvent) => {
    const form = fields(event);
    const status = text(form, 'outcome') as 'resolved' | 'ignored';
    actions.update({ status, note: text(form, 'note') }, `Ticket ${status}.`);
  };
  return html`<form class="action" @submit=${submit}>
    <h3>Resolve or ignore</h3>
    <fieldset>
      <legend>Outcome</legend>
      <label class="check"><input type="radio" name="outcome" value="resolved" checked />
        Resolve: the cause is fixed</label>
      <label class="check"><input type="radio" name="outcome" value="ignored" /> Ignore: not a real problem</label>
    </fieldset>
    <label for="note">Note (required)</label>
    <textarea id="note" name="note" required maxlength="4000" rows="3"></textarea>
    <button type="submit">Save outcome</button>
  </form>`;
}

function matchForm(ticket: Ticket, actions: TicketActions): TemplateResult {
  const submit = (event: SubmitEvent) => {
    const form = fields(event);
    const note = text(form, 'match-note');
    actions.match({
      statementLines: list(text(form, 'lines')),
      entries: list(text(form, 'entries')).map(entryOf),
      ...(note ? { note } : {}),
    });
  };
  return html`<form class="action" @submit=${submit}>
    <h3>Match by hand</h3>
    <label for="lines">Statement line ids</label>
    <textarea id="lines" name="lines" required rows="2"
      .value=${statementLineIds(ticket.evidence).slice(0, 1).join('\n')}></textarea>
    <label for="entries">Transactions (<code>id</code> or <code>id:leg</code>)</label>
    <textarea id="entries" name="entries" required rows="2"
      .value=${transactionIds(ticket.evidence).join('\n')}></textarea>
    <label for="match-note">Note</label>
    <input id="match-note" name="match-note" maxlength="4000" />
    <button type="submit">Match</button>
  </form>`;
}

function acknowledgeAction(acknowledge: () => void): TemplateResult {
  return html`<div class="action"><h3>Acknowledge</h3><p>Tell the team someone is on it.</p>
    <button type="button" @click=${acknowledge}>Acknowledge</button></div>`;
}

/** The forms a finance key may use on a ticket still being worked. */
export function actionsView(ticket: Ticket, actions: TicketActions): TemplateResult {
  if (ticket.status === 'resolved' || ticket.status === 'ignored') {
    return html`<p>This ticket is ${ticket.status}. If a later run finds its cause again, it reopens it.</p>
      <div class="actions">${reopenForm(ticket, actions)}${commentForm(actions)}</div>`;
  }
  const acknowledge = () => actions.update({ status: 'acknowledged' }, 'Acknowledged.');
  return html`<div class="actions">
    ${assignForm(ticket, actions)}
    ${ticket.status === 'open' ? acknowledgeAction(acknowledge) : ''}
    ${closeForm(actions)}
    ${statementLineIds(ticket.evidence).length ? matchForm(ticket, actions) : ''}
    ${commentForm(actions)}
  </div>`;
}
