import { html, type TemplateResult } from 'lit-html';
import type { PaymentOrderStep } from '../api-types';
import { formatInstant, humanize } from '../format';
import { stepDetail } from '../payment-steps';

/** An instant to the minute, as everywhere in the console; the exact time on hover and for assistive tools. */
export function instant(iso: string | null): TemplateResult | string {
  return iso ? html`<time datetime=${iso} title=${iso}>${formatInstant(iso)}</time>` : '—';
}

/** The step's answer: its facts on one line, the provider's body folded away under them. */
function answer(step: PaymentOrderStep): TemplateResult {
  const detail = stepDetail(step.detail);
  const facts = detail.facts.length
    ? html`<span>${detail.facts.join(' · ')}</span>`
    : html`<span class="muted">—</span>`;
  return html`${facts}
    ${
      detail.body === undefined
        ? ''
        : html`<details><summary>Provider answer body</summary><pre>${detail.body}</pre></details>`
    }`;
}

/** Every step the saga took, oldest first: what it did, what came of it, and the status it left the order in. */
export function timelineView(steps: PaymentOrderStep[]): TemplateResult {
  return html`<section aria-labelledby="timeline-heading">
    <h2 id="timeline-heading">Timeline</h2>
    <table class="compact timeline">
      <caption class="visually-hidden">The order's steps, oldest first</caption>
      <thead><tr>
        <th scope="col" class="number">Seq</th><th scope="col">Time</th><th scope="col">Step</th>
        <th scope="col">Outcome</th><th scope="col">Status after</th><th scope="col">Actor</th>
        <th scope="col">Detail</th>
      </tr></thead>
      <tbody>
        ${steps.map(
          (step) => html`<tr>
            <td class="number">${step.seq}</td><td>${instant(step.at)}</td><td>${humanize(step.step)}</td>
            <td>${humanize(step.outcome)}</td>
            <td><span class="status status-${step.status}">${humanize(step.status)}</span></td>
            <td class="muted by">${step.actor}</td><td>${answer(step)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}
