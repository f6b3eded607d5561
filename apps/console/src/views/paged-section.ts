import { html, type TemplateResult } from 'lit-html';
import type { ListPage } from '../api-client';
import { failure, loading } from './states';

export interface PagedSectionOptions<T> {
  /** What the list holds, for the loading message and the pager's label ("tickets"). */
  what: string;
  load(cursor: string | undefined): Promise<ListPage<T>>;
  /** The rows as a table (or list); only called with at least one item. */
  rows(items: T[]): TemplateResult;
  empty: TemplateResult;
  /** Receives the section each time it changes; the page places it among its other parts. */
  update(section: TemplateResult): void;
  /** Told about each page as it arrives (a chart drawn from the same rows, say). */
  loaded?(items: T[]): void;
}

/**
 * A server-paged list: the API hands out a cursor for the next page; the cursors of the pages before
 * this one are kept so that "Previous page" goes back without the server knowing about it.
 */
export async function pagedSection<T>(options: PagedSectionOptions<T>): Promise<void> {
  const trail: (string | undefined)[] = [undefined];
  const show = async (): Promise<void> => {
    options.update(loading(options.what));
    let page: ListPage<T>;
    try {
      page = await options.load(trail.at(-1));
    } catch (error) {
      options.update(failure(error, () => void show()));
      return;
    }
    options.loaded?.(page.data);
    const previous = () => {
      trail.pop();
      void show();
    };
    const next = () => {
      trail.push(page.nextCursor ?? undefined);
      void show();
    };
    const pager = html`<nav class="pager" aria-label="Pages of ${options.what}">
      <button type="button" class="secondary" ?disabled=${trail.length === 1} @click=${previous}>Previous page</button>
      <span>Page ${trail.length}</span>
      <button type="button" class="secondary" ?disabled=${page.nextCursor === null} @click=${next}>Next page</button>
    </nav>`;
    options.update(
      page.data.length === 0 && trail.length === 1 ? options.empty : html`${options.rows(page.data)}${pager}`,
    );
  };
  await show();
}
