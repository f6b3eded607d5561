import { apiPath } from '../api-path';
import { html, type TemplateResult } from 'lit-html';
import { type ListPage, api } from '../api-client';
import type { StatementImport, StatementLine } from '../api-types';
import { formatInstant, formatMinor } from '../format';
import type { Page } from '../page';
import { link } from '../router';
import { pagedSection } from './paged-section';
import { empty, failure, loading } from './states';

export const IMPORT_LINES_PAGE_SIZE = 100;

function lineRows(lines: StatementLine[]): TemplateResult {
  return html`<table class="compact">
    <caption class="visually-hidden">Statement lines in file order</caption>
    <thead><tr>
      <th scope="col">Line</th><th scope="col">Booked</th><th scope="col">Description</th>
      <th scope="col">References</th><th scope="col" class="number">Amount</th><th scope="col">Report</th>
    </tr></thead>
    <tbody>
      ${lines.map(
        (line) => html`<tr><td>${line.lineNumber}</td><td>${line.bookedOn}</td><td>${line.description}</td>
          <td>${Object.entries(line.references)
            .map(([name, value]) => `${name}: ${value}`)
            .join(', ')}</td>
          <td class="number">${formatMinor(line.amount, line.currency)}</td>
          <td>${line.interim ? 'interim' : 'final'}</td></tr>`,
      )}
    </tbody>
  </table>`;
}

function warningList(warnings: string[]): TemplateResult {
  return html`<div class="notice error" role="alert"><p>Warnings:</p>
    <ul>${warnings.map((warning) => html`<li>${warning}</li>`)}</ul></div>`;
}

const INTERIM_NOTE = ' (interim report: its lines stay interim until the end-of-day statement brings them)';

function finalized(count: number): string {
  return count > 0 ? `, of which ${count} interim made final` : '';
}

export const importPage: Page = async (context) => {
  const id = context.route.param;
  const back = html`<p><a href=${link('/imports')}>← Import another statement</a></p>`;
  context.render(html`${back}<h1 tabindex="-1">Import</h1>${loading('the import')}`);
  let found: StatementImport;
  try {
    found = await api.get<StatementImport>(apiPath`/v1/imports/${id}`);
  } catch (error) {
    context.render(html`${back}<h1 tabindex="-1">Import</h1>${failure(error, context.reload)}`);
    return;
  }
  let section: TemplateResult = html``;
  const draw = () =>
    context.render(html`${back}
      <h1 tabindex="-1">Import of ${found.fileName ?? 'a statement'} into ${found.source}</h1>
      <dl class="summary">
        <dt>Format</dt><dd>${found.format}${found.interim ? INTERIM_NOTE : ''}</dd>
        <dt>Lines</dt><dd>${found.lines} (${found.duplicates} already known${finalized(found.finalized)})</dd>
        <dt>Imported</dt><dd>${formatInstant(found.createdAt)} <span class="muted by">by ${found.actor}</span></dd>
      </dl>
      ${found.warnings.length ? warningList(found.warnings) : ''}
      <h2>Lines</h2>
      ${section}`);
  await pagedSection<StatementLine>({
    what: 'statement lines',
    load: (cursor) =>
      api.get<ListPage<StatementLine>>(apiPath`/v1/imports/${id}/lines`, {
        cursor,
        limit: String(IMPORT_LINES_PAGE_SIZE),
      }),
    rows: lineRows,
    empty: empty('This import added no new lines: the source already had every one of them.'),
    update: (next) => {
      section = next;
      draw();
    },
  });
};
