import { html, type TemplateResult } from 'lit-html';
import { apiPath } from '../api-path';
import { type ListPage, api } from '../api-client';
import type { ListedStatementLine } from '../api-types';
import { formatMinor } from '../format';
import type { PageContext } from '../page';
import { link } from '../router';
import { pagedSection } from './paged-section';
import { empty } from './states';

export const SOURCE_LINES_PAGE_SIZE = 50;

const STATUSES = [
  { value: 'unmatched', label: 'not matched yet' },
  { value: 'matched', label: 'matched' },
  { value: 'all', label: 'all' },
] as const;

function lineRows(lines: ListedStatementLine[]): TemplateResult {
  return html`<table class="compact source-lines">
    <caption class="visually-hidden">Statement lines of the source, latest booking day first</caption>
    <thead><tr>
      <th scope="col">Booked</th><th scope="col">Description</th><th scope="col">References</th>
      <th scope="col" class="number">Amount</th><th scope="col">Matched</th><th scope="col">Report</th>
      <th scope="col">Import</th>
    </tr></thead>
    <tbody>
      ${lines.map(
        (line) => html`<tr><td>${line.bookedOn}</td><td>${line.description}</td>
          <td>${Object.entries(line.references)
            .map(([name, value]) => `${name}: ${value}`)
            .join(', ')}</td>
          <td class="number">${formatMinor(line.amount, line.currency)}</td>
          <td>${line.matched ? 'yes' : 'no'}</td>
          <td title=${line.interim ? 'from an interim report; no end-of-day statement has brought it yet' : ''}>
            ${line.interim ? 'interim' : 'final'}</td>
          <td><a href=${link('/imports', line.importId)}>line ${line.lineNumber}</a></td></tr>`,
      )}
    </tbody>
  </table>`;
}

/**
 * One source's statement lines across its imports (`?source=` in the route), not matched yet by default
 * (`?lines=matched|all`): what the bank reported that the ledger does not explain yet.
 */
export async function sourceLines(
  context: PageContext,
  source: string,
  update: (section: TemplateResult) => void,
): Promise<void> {
  const asked = context.route.query.get('lines');
  const status = STATUSES.find((choice) => choice.value === asked)?.value ?? 'unmatched';
  const choose = (event: Event) => {
    const lines = (event.currentTarget as HTMLSelectElement).value;
    context.navigate(link('/imports', undefined, { source, lines }));
  };
  const form = html`<form class="filters" @submit=${(event: SubmitEvent) => event.preventDefault()}>
    <div class="field"><label for="source-lines-status">Lines of ${source}</label>
      <select id="source-lines-status" name="lines" @change=${choose}>
        ${STATUSES.map(
          (choice) => html`<option value=${choice.value} ?selected=${choice.value === status}>${choice.label}</option>`,
        )}
      </select></div>
  </form>`;
  await pagedSection<ListedStatementLine>({
    what: 'statement lines',
    load: (cursor) =>
      api.get<ListPage<ListedStatementLine>>(apiPath`/v1/statement-lines`, {
        source,
        status: status === 'all' ? undefined : status,
        cursor,
        limit: String(SOURCE_LINES_PAGE_SIZE),
      }),
    rows: lineRows,
    empty: empty(status === 'unmatched' ? `Every line of ${source} is matched.` : `No such line of ${source}.`),
    update: (list) => update(html`<h2>Statement lines of ${source}</h2>${form}${list}`),
  });
}
