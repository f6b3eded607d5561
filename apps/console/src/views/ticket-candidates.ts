import { html, type TemplateResult } from 'lit-html';
import type { LedgerSchema } from '@ledger/client';
import { formatInstant, formatMinor } from '../format';

// The ledger transactions the API suggests for a ticket's statement lines, best first, each with a
// one-click match (the manual match of POST /v1/matches, then the ticket resolved with a note).

export type Candidate = LedgerSchema<'DiscrepancyCandidates'>['data'][number];

/** What was read: not yet, the suggestions, or why they could not be. */
export type CandidatesState = { status: 'loading' } | { status: 'loaded'; data: Candidate[] } | { status: 'failed' };

/** The manual match a suggestion stands for: the ticket's unmatched lines with the candidate's entries. */
export function matchBodyOf(candidate: Candidate): {
  statementLines: string[];
  entries: { transaction: string; leg: number }[];
  note: string;
} {
  return {
    statementLines: candidate.statementLines,
    entries: candidate.entries.map((entry) => ({ transaction: candidate.transactionId, leg: entry.leg })),
    note: `matched from a suggestion (score ${candidate.score})`,
  };
}

function described(candidate: Candidate): TemplateResult {
  const reference = candidate.externalRef ? html`<code>${candidate.externalRef}</code>` : '';
  const text = candidate.description ?? '';
  return html`${reference}${reference && text ? ' ' : ''}${text || (reference ? '' : '(no description)')}`;
}

const reasonItem = (reason: Candidate['reasons'][number]) => html`<li title=${reason.code}>${reason.text}</li>`;

function row(candidate: Candidate, match: ((candidate: Candidate) => void) | undefined): TemplateResult {
  return html`<tr data-testid="candidate" data-transaction=${candidate.transactionId}>
    <td>${formatInstant(candidate.effectiveAt)}</td>
    <td>${described(candidate)}</td>
    <td class="number">${formatMinor(candidate.amount, candidate.currency)}</td>
    <td class="number">${candidate.score}</td>
    <td><ul class="reasons">${candidate.reasons.map(reasonItem)}</ul></td>
    ${
      match
        ? html`<td><button type="button" data-testid="candidate-match" @click=${() => match(candidate)}
            aria-label=${`Match these: ${formatMinor(candidate.amount, candidate.currency)}, score ${candidate.score}`}>
            Match these</button></td>`
        : ''
    }
  </tr>`;
}

/**
 * Beside the evidence: the suggestions with amount, date, description or reference, score and reasons.
 * `match` is given to a key that may work the ticket.
 */
export function candidatesView(
  state: CandidatesState,
  match: ((candidate: Candidate) => void) | undefined,
): TemplateResult {
  const body =
    state.status === 'loading'
      ? html`<p role="status">Looking for likely ledger transactions…</p>`
      : state.status === 'failed'
        ? html`<p class="notice error" role="alert">The suggestions could not be read.</p>`
        : state.data.length === 0
          ? html`<p class="muted">No unmatched ledger entry on the account is near these lines.</p>`
          : html`<table class="compact candidates">
              <caption>Best first: unmatched entries on the source's account</caption>
              <thead><tr>
                <th scope="col">Effective</th><th scope="col">Description</th>
                <th scope="col" class="number">Amount</th><th scope="col" class="number">Score</th>
                <th scope="col">Why</th>${match ? html`<th scope="col"><span class="muted">Action</span></th>` : ''}
              </tr></thead>
              <tbody>${state.data.map((candidate) => row(candidate, match))}</tbody>
            </table>`;
  return html`<section aria-labelledby="candidates-heading">
    <h2 id="candidates-heading">Suggested matches</h2>
    ${body}
  </section>`;
}
