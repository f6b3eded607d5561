import { apiPath } from '../api-path';
import { html, type TemplateResult } from 'lit-html';
import { ApiError, type ListPage, api } from '../api-client';
import type { Match, StatementLine, Ticket, TicketEvent, Transaction } from '../api-types';
import { EVIDENCE_MEMBERS_MAX, statementLineIds, transactionIds } from '../evidence';
import { formatAge, formatInstant, formatMinor, humanize } from '../format';
import { type Page, canWork } from '../page';
import { link } from '../router';
import { actionsView, type TicketActions } from './ticket-actions';
import { adjustmentPanel } from './ticket-adjustment';
import { type Explanation, evidenceView } from './ticket-evidence';
import { historyView } from './ticket-history';
import { STALE_TICKET_TEXT, commentKeys } from './ticket-lifecycle';
import { type Candidate, type CandidatesState, candidatesView, matchBodyOf } from './ticket-candidates';
import { explainError, failure, loading, notice } from './states';

type TicketWithHistory = Ticket & { history: TicketEvent[] };

/** Transactions named by the evidence, then those a match joined to its lines (a manual match, say). */
function transactionsToShow(ticket: Ticket, matches: Match[]): string[] {
  const matched = matches.flatMap((match) => match.entries.map((entry) => entry.transactionId));
  return [...new Set([...transactionIds(ticket.evidence), ...matched])].slice(0, EVIDENCE_MEMBERS_MAX);
}

/** The lines and transactions the evidence names, and the matches of its first line (or transaction): the "why". */
async function explain(ticket: Ticket): Promise<Explanation> {
  const lineIds = statementLineIds(ticket.evidence);
  const [firstTransaction] = transactionIds(ticket.evidence);
  const matchQuery = lineIds[0]
    ? { statementLine: lineIds[0] }
    : firstTransaction
      ? { transaction: firstTransaction }
      : undefined;
  const [matches] = await Promise.allSettled([
    matchQuery
      ? api.get<ListPage<Match>>(apiPath`/v1/matches`, matchQuery)
      : Promise.resolve({ data: [], nextCursor: null }),
  ]);
  const found = matches.status === 'fulfilled' ? matches.value.data : [];
  const [lines, transactions] = await Promise.allSettled([
    Promise.all(lineIds.map((id) => api.get<StatementLine>(apiPath`/v1/statement-lines/${id}`))),
    Promise.all(transactionsToShow(ticket, found).map((id) => api.get<Transaction>(apiPath`/v1/transactions/${id}`))),
  ]);
  const problems = [matches, lines, transactions].flatMap((result) =>
    result.status === 'rejected' ? [explainError(result.reason)] : [],
  );
  return {
    lines: lines.status === 'fulfilled' ? lines.value : [],
    transactions: transactions.status === 'fulfilled' ? transactions.value : [],
    matches: found,
    ...(problems.length ? { problem: `Part of the evidence could not be read: ${problems.join('; ')}` } : {}),
  };
}

/** Suggestions are for a ticket still being worked that is about statement lines. */
const wantsCandidates = (ticket: Ticket) =>
  (ticket.status === 'open' || ticket.status === 'acknowledged') && statementLineIds(ticket.evidence).length > 0;

async function readCandidates(ticket: Ticket): Promise<CandidatesState | undefined> {
  if (!wantsCandidates(ticket)) return undefined;
  try {
    const found = await api.get<{ data: Candidate[] }>(apiPath`/v1/discrepancies/${ticket.id}/candidates`);
    return { status: 'loaded', data: found.data };
  } catch {
    return { status: 'failed' };
  }
}

const OVERDUE_BADGE = html` <span class="badge overdue">Overdue</span>`;

function summary(ticket: Ticket): TemplateResult {
  return html`<dl class="summary">
    <dt>Status</dt><dd><span class="status status-${ticket.status}">${humanize(ticket.status)}</span></dd>
    <dt>Owner</dt><dd>${ticket.owner}</dd>
    <dt>Kind</dt><dd>${humanize(ticket.kind)} (${ticket.severity})</dd>
    <dt>Amount</dt><dd>${formatMinor(ticket.amount, ticket.currency)}</dd>
    <dt>Opened</dt><dd>${formatInstant(ticket.openedAt)} (${formatAge(ticket.ageHours)} ago)</dd>
    <dt>Due</dt><dd>${formatInstant(ticket.dueAt)}${ticket.overdue ? OVERDUE_BADGE : ''}</dd>
    ${ticket.resolvedAt ? html`<dt>Closed</dt><dd>${formatInstant(ticket.resolvedAt)}</dd>` : ''}
  </dl>`;
}

function readOnlyNote(roles: readonly string[]): TemplateResult {
  const text = `Read only: this key's roles (${roles.join(', ')}) cannot change tickets; a finance key can.`;
  return html`<p class="read-only">${text}</p>`;
}

export const ticketPage: Page = async (context) => {
  const id = context.route.param;
  const back = html`<p><a href=${link('/discrepancies')}>← Back to the queue</a></p>`;
  context.render(html`${back}<h1 tabindex="-1">Ticket</h1>${loading('the ticket')}`);
  let ticket: TicketWithHistory;
  let explanation: Explanation | undefined;
  let candidates: CandidatesState | undefined;
  let outcome: TemplateResult = notice(undefined);
  let busy = false;

  // The suggestions come before "Book it": a line the ledger already holds is matched, not booked twice.
  const draw = () =>
    context.render(html`${back}
      <h1 tabindex="-1">${ticket.summary}</h1>
      ${summary(ticket)}
      ${evidenceView(ticket, explanation)}
      ${candidates ? candidatesView(candidates, canWork(context.principal) ? actions.matchCandidate : undefined) : ''}
      ${adjustment(ticket)}
      <section aria-labelledby="actions-heading">
        <h2 id="actions-heading">Work this ticket</h2>
        <div id="outcome" tabindex="-1">${outcome}</div>
        ${
          canWork(context.principal)
            ? html`<div aria-busy=${busy ? 'true' : 'false'}>${actionsView(ticket, actions)}</div>`
            : readOnlyNote(context.principal.roles)
        }
      </section>
      ${historyView(ticket.history)}`);

  const reread = async () => {
    ticket = await api.get<TicketWithHistory>(apiPath`/v1/discrepancies/${id}`);
  };
  const run = async (work: () => Promise<unknown>, done: string): Promise<boolean> => {
    // One change at a time; the forms stay enabled so that keyboard focus is never dropped.
    if (busy) return false;
    busy = true;
    draw();
    let ok = false;
    try {
      await work();
      ok = true;
      await reread();
      outcome = notice(done);
    } catch (error) {
      // A 412: the ticket changed since it was shown; it is read again, so the next try is made to it as it is.
      const stale = error instanceof ApiError && error.code === 'STALE_VERSION';
      if (stale) await reread().catch(() => undefined);
      outcome = notice(stale ? STALE_TICKET_TEXT : explainError(error), 'error');
    }
    busy = false;
    draw();
    // The form used may be gone (a resolved ticket has none): the reader continues at the outcome.
    document.getElementById('outcome')?.focus();
    return ok;
  };
  // A booking matches the line too: the evidence is read again to show the new transaction.
  const adjustment = adjustmentPanel(canWork(context.principal), draw, (work, done) =>
    run(async () => {
      await work();
      explanation = await explain(ticket);
    }, done),
  );
  const comments = commentKeys();
  const path = apiPath`/v1/discrepancies/${id}`;
  const actions: TicketActions & { matchCandidate(candidate: Candidate): void } = {
    update: (change, done) => void run(() => api.patch(path, change, { ifMatch: ticket.version }), done),
    match: (body) =>
      void run(async () => {
        await api.post(apiPath`/v1/matches`, body);
        explanation = await explain(ticket);
      }, 'Matched. The next reconciliation run resolves the ticket if the match explains it.'),
    reopen: (note) =>
      run(() => api.post(apiPath`/v1/discrepancies/${id}/reopen`, { note }, { ifMatch: ticket.version }), 'Reopened.'),
    comment: (note) =>
      run(async () => {
        await api.post(apiPath`/v1/discrepancies/${id}/comments`, { note }, { idempotencyKey: comments.keyFor(note) });
        comments.stored();
      }, 'Comment added.'),
    // The suggestion's lines and entries matched by hand, and the ticket resolved saying so.
    matchCandidate: (candidate) =>
      void run(async () => {
        await api.post(apiPath`/v1/matches`, matchBodyOf(candidate));
        const note = `Matched to transaction ${candidate.transactionId} from the suggestions.`;
        await api.patch(path, { status: 'resolved', note }, { ifMatch: ticket.version });
        candidates = undefined;
        explanation = await explain(ticket);
      }, 'Matched and resolved.'),
  };

  try {
    ticket = await api.get<TicketWithHistory>(apiPath`/v1/discrepancies/${id}`);
  } catch (error) {
    context.render(html`${back}<h1 tabindex="-1">Ticket</h1>${failure(error, context.reload)}`);
    return;
  }
  candidates = wantsCandidates(ticket) ? { status: 'loading' } : undefined;
  draw();
  [explanation, candidates] = await Promise.all([explain(ticket), readCandidates(ticket)]);
  draw();
};
