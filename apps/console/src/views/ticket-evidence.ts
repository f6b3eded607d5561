import { html, type TemplateResult } from 'lit-html';
import type { Match, StatementLine, Ticket, Transaction } from '../api-types';
import { type EvidenceSide, evidenceLink, evidenceSide, evidenceText } from '../evidence';
import { formatInstant, formatMinor, humanize } from '../format';
import { link } from '../router';

/** What was fetched to explain a ticket; each part may have failed on its own. */
export interface Explanation {
  lines: StatementLine[];
  transactions: Transaction[];
  matches: Match[];
  problem?: string;
}

/** A value as code, linked to its page when the console has one (a payment order). */
function factValue(key: string, value: unknown): TemplateResult {
  const text = html`<code>${evidenceText(value)}</code>`;
  const target = evidenceLink(key, value);
  return target === undefined ? text : html`<a href=${target}>${text}</a>`;
}

function facts(evidence: Record<string, unknown>, side: EvidenceSide): TemplateResult {
  const entries = Object.entries(evidence).filter(([key]) => evidenceSide(key) === side);
  if (entries.length === 0) return html``;
  return html`<dl class="facts">${entries.map(
    ([key, value]) => html`<dt>${key}</dt><dd>${factValue(key, value)}</dd>`,
  )}</dl>`;
}

/** Said only once everything is loaded and the side is really empty (a line the ledger never heard of). */
function nothingOn(ticket: Ticket, side: EvidenceSide, fetched: number | undefined): TemplateResult {
  const named = Object.keys(ticket.evidence).some((key) => evidenceSide(key) === side);
  return fetched === 0 && !named ? html`<p class="muted">Nothing on this side.</p>` : html``;
}

function transactionTable(transaction: Transaction): TemplateResult {
  const reference = transaction.externalRef ? ` (${transaction.externalRef})` : '';
  return html`<table class="compact">
    <caption>Transaction <code>${transaction.id}</code>${reference},
      ${transaction.status}, effective ${formatInstant(transaction.effectiveAt)}
      <span class="muted by">by ${transaction.actor}</span></caption>
    <thead><tr>
      <th scope="col">Leg</th><th scope="col">Account</th><th scope="col">Direction</th>
      <th scope="col" class="number">Amount</th>
    </tr></thead>
    <tbody>
      ${transaction.entries.map(
        (entry) =>
          html`<tr><td>${entry.leg}</td>
            <td><a href=${link('/accounts', entry.accountCode)}>${entry.accountCode}</a></td><td>${entry.direction}</td>
            <td class="number">${formatMinor(entry.amount, entry.currency)}</td></tr>`,
      )}
    </tbody>
  </table>`;
}

/** The line's description, linked to its import when the line came from one. */
function lineDescription(line: StatementLine): TemplateResult | string {
  if (!line.importId) return line.description;
  return html`<a href=${link('/imports', line.importId)}>${line.description || '(no description)'}</a>`;
}

function lineTable(lines: StatementLine[]): TemplateResult {
  if (lines.length === 0) return html``;
  return html`<table class="compact">
    <caption>Statement lines</caption>
    <thead><tr>
      <th scope="col">Booked</th><th scope="col">Description</th><th scope="col">References</th>
      <th scope="col" class="number">Amount</th>
    </tr></thead>
    <tbody>
      ${lines.map(
        (line) => html`<tr><td>${line.bookedOn}</td>
          <td>${lineDescription(line)}</td>
          <td>${Object.entries(line.references)
            .map(([name, value]) => `${name}: ${value}`)
            .join(', ')}</td>
          <td class="number">${formatMinor(line.amount, line.currency)}</td></tr>`,
      )}
    </tbody>
  </table>`;
}

/** Every decision on the match with its note, oldest first (notes are appended, never replaced). */
function matchHistory(match: Match): TemplateResult {
  return html`<ul class="match-history">
    ${match.history.map(
      (event) => html`<li>${humanize(event.action)} <span class="muted by">by ${event.actor}</span>
        on ${formatInstant(event.at)}${event.note ? html`: ${event.note}` : ''}</li>`,
    )}
  </ul>`;
}

function matchExplanation(match: Match): TemplateResult {
  const state = match.undoneBy
    ? `undone by ${match.undoneBy}`
    : match.confirmedBy
      ? `confirmed by ${match.confirmedBy}`
      : `proposed by ${match.createdBy}`;
  const lines = match.statementLines.map((line) => `${formatMinor(line.amount, line.currency)} on ${line.bookedOn}`);
  const entries = match.entries.map((entry) => `${entry.direction} ${formatMinor(entry.amount, entry.currency)}`);
  return html`<li>
    Matched by rule <strong>${humanize(match.rule)}</strong>, ${state} on ${formatInstant(match.createdAt)}:
    ${match.statementLines.length} statement line(s) (${lines.join('; ')})
    with ${match.entries.length} ledger entr${match.entries.length === 1 ? 'y' : 'ies'} (${entries.join('; ')}).
    ${match.history.length ? matchHistory(match) : ''}
    <details><summary>Rule evidence</summary><code>${JSON.stringify(match.evidence)}</code></details>
  </li>`;
}

const LOADING_LINES = html`<p role="status">Loading statement lines…</p>`;
const LOADING_TRANSACTIONS = html`<p role="status">Loading transactions…</p>`;

/** The statement side and the ledger side next to each other, then how they were (or were not) matched. */
export function evidenceView(ticket: Ticket, explanation: Explanation | undefined): TemplateResult {
  const check = Object.keys(ticket.evidence).some((key) => evidenceSide(key) === 'check');
  return html`<section aria-labelledby="evidence-heading">
    <h2 id="evidence-heading">Evidence</h2>
    <div class="side-by-side">
      <div class="side" aria-label="Statement side">
        <h3>Statement${ticket.source ? `: ${ticket.source}` : ''}</h3>
        ${explanation === undefined ? LOADING_LINES : lineTable(explanation.lines)}
        ${facts(ticket.evidence, 'statement')}
        ${nothingOn(ticket, 'statement', explanation?.lines.length)}
      </div>
      <div class="side" aria-label="Ledger side">
        <h3>Ledger${ticket.accountCode ? `: ${ticket.accountCode}` : ''}</h3>
        ${facts(ticket.evidence, 'ledger')}
        ${explanation === undefined ? LOADING_TRANSACTIONS : explanation.transactions.map(transactionTable)}
        ${nothingOn(ticket, 'ledger', explanation?.transactions.length)}
      </div>
    </div>
    ${check ? html`<h3>Check</h3>${facts(ticket.evidence, 'check')}` : ''}
    <h3>Match explanation</h3>
    ${
      explanation === undefined
        ? html`<p role="status">Loading matches…</p>`
        : explanation.matches.length
          ? html`<ul class="matches">${explanation.matches.map(matchExplanation)}</ul>`
          : html`<p>No match joins these lines and entries: ${ticket.summary}.</p>`
    }
    ${explanation?.problem ? html`<p class="notice error" role="alert">${explanation.problem}</p>` : ''}
  </section>`;
}
