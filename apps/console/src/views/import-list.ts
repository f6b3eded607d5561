import { apiPath } from '../api-path';
import { html, type TemplateResult } from 'lit-html';
import { type ListPage, api } from '../api-client';
import type { Source, StatementImport } from '../api-types';
import { formatInstant } from '../format';
import type { PageContext } from '../page';
import { link } from '../router';
import { pagedSection } from './paged-section';
import { empty } from './states';

export const IMPORTS_PAGE_SIZE = 25;

function importRows(imports: StatementImport[]): TemplateResult {
  return html`<table class="compact imports">
    <caption class="visually-hidden">Imports, newest first</caption>
    <thead><tr>
      <th scope="col">Imported</th><th scope="col">Source</th><th scope="col">File</th><th scope="col">Format</th>
      <th scope="col" class="number">Lines</th><th scope="col" class="number">Already known</th>
      <th scope="col">By</th>
    </tr></thead>
    <tbody>
      ${imports.map(
        (made) => html`<tr>
          <td><a href=${link('/imports', made.id)}>${formatInstant(made.createdAt)}</a></td>
          <td>${made.source}</td><td>${made.fileName ?? ''}</td>
          <td>${made.format}${made.interim ? ' (interim)' : ''}</td>
          <td class="number">${made.lines}</td><td class="number">${made.duplicates}</td><td>${made.actor}</td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}

/**
 * The tenant's imports, newest first, each linking to its lines; `?source=` in the route keeps one
 * source's. `update` receives the section (filter and list) each time it changes.
 */
export async function importList(
  context: PageContext,
  sources: Source[],
  update: (section: TemplateResult) => void,
): Promise<void> {
  const source = context.route.query.get('source') ?? '';
  const filter = (event: Event) => {
    const value = (event.currentTarget as HTMLSelectElement).value;
    context.navigate(link('/imports', undefined, value ? { source: value } : {}));
  };
  const form = html`<form class="filters" @submit=${(event: SubmitEvent) => event.preventDefault()}>
    <div class="field"><label for="imports-source">Imports of</label>
      <select id="imports-source" name="source" @change=${filter}>
        <option value="" ?selected=${source === ''}>every source</option>
        ${sources.map(
          (item) => html`<option value=${item.name} ?selected=${item.name === source}>${item.name}</option>`,
        )}
      </select></div>
  </form>`;
  await pagedSection<StatementImport>({
    what: 'imports',
    load: (cursor) =>
      api.get<ListPage<StatementImport>>(apiPath`/v1/imports`, {
        cursor,
        source: source || undefined,
        limit: String(IMPORTS_PAGE_SIZE),
      }),
    rows: importRows,
    empty: empty(source ? `No import of ${source} yet.` : 'No statement imported yet.'),
    update: (list) => update(html`<h2>Imports</h2>${form}${list}`),
  });
}
