import { apiPath } from '../api-path';
import { html, type TemplateResult } from 'lit-html';
import { type Query, api, type ListPage } from '../api-client';
import { DISCREPANCY_KINDS, TICKET_STATUSES, type Ticket, type TicketCounts } from '../api-types';
import { formatAge, formatInstant, formatMinor, humanize } from '../format';
import { type Page, canWork } from '../page';
import { link } from '../router';
import { pagedSection } from './paged-section';
import { queueBulk } from './queue-bulk';
import { queueEmptyState } from './queue-empty';
import { option } from './select-option';
import { failure } from './states';

export const QUEUE_PAGE_SIZE = 50;
const DAY_MS = 24 * 3600 * 1000;
const AGE_DAYS = ['1', '3', '7', '30'];

/** The filters as they stand in the address (`#/discrepancies?status=open&age=7`), so they survive back and forward. */
const FILTERS = ['status', 'owner', 'kind', 'age', 'minAmount', 'overdue'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

function readFilters(query: URLSearchParams): Filters {
  return Object.fromEntries(FILTERS.flatMap((name) => (query.get(name) ? [[name, query.get(name)!]] : [])));
}

function apiQuery(filters: Filters): Query {
  const { age, ...rest } = filters;
  return { ...rest, openedBefore: age ? new Date(Date.now() - Number(age) * DAY_MS).toISOString() : undefined };
}

function countsBar(counts: TicketCounts | Error | undefined): TemplateResult {
  if (counts === undefined) return html`<p class="counts" role="status">Counting tickets…</p>`;
  if (counts instanceof Error) return failure(counts);
  return html`<ul class="counts" aria-label="Tickets by status">
    ${TICKET_STATUSES.map(
      (status) => html`<li><a href=${link('/discrepancies', undefined, { status })}>${humanize(status)}
        <strong>${counts.byStatus[status]}</strong></a></li>`,
    )}
    <li class="overdue"><a href=${link('/discrepancies', undefined, { overdue: 'true' })}>overdue
      <strong>${counts.overdue}</strong></a></li>
    <li>total <strong>${counts.total}</strong></li>
  </ul>`;
}

function filterForm(filters: Filters, apply: (filters: Filters) => void): TemplateResult {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    apply(
      Object.fromEntries(FILTERS.flatMap((name) => (form.get(name) ? [[name, String(form.get(name)).trim()]] : []))),
    );
  };
  return html`<form class="filters" @submit=${submit} aria-label="Filter tickets">
    <div class="field"><label for="filter-status">Status</label>
      <select id="filter-status" name="status">${option('', 'Any', filters.status)}
        ${TICKET_STATUSES.map((status) => option(status, humanize(status), filters.status))}</select></div>
    <div class="field"><label for="filter-owner">Owner</label>
      <input id="filter-owner" name="owner" .value=${filters.owner ?? ''} size="14" /></div>
    <div class="field"><label for="filter-kind">Kind</label>
      <select id="filter-kind" name="kind">${option('', 'Any', filters.kind)}
        ${DISCREPANCY_KINDS.map((kind) => option(kind, humanize(kind), filters.kind))}</select></div>
    <div class="field"><label for="filter-age">Age</label>
      <select id="filter-age" name="age">${option('', 'Any', filters.age)}
        ${AGE_DAYS.map((days) => option(days, `older than ${days} d`, filters.age))}</select></div>
    <div class="field"><label for="filter-min-amount">Min amount (minor units)</label>
      <input id="filter-min-amount" name="minAmount" .value=${filters.minAmount ?? ''} inputmode="numeric"
        pattern="[0-9]+" size="10" /></div>
    <label class="check"><input type="checkbox" name="overdue" value="true" ?checked=${filters.overdue === 'true'} />
      Overdue only</label>
    <button type="submit">Apply filters</button>
    <a href="#/discrepancies">Clear</a>
  </form>`;
}

const OVERDUE_BADGE = html` <span class="badge overdue">Overdue</span>`;

type Selection = Pick<ReturnType<typeof queueBulk>, 'cell' | 'header'>;

function ticketRows(tickets: Ticket[], selection: Selection | undefined): TemplateResult {
  return html`<table class="tickets">
    <caption class="visually-hidden">Discrepancy tickets, newest first</caption>
    <thead><tr>${selection?.header ?? ''}
      <th scope="col">Summary</th><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">Owner</th>
      <th scope="col" class="number">Amount</th><th scope="col">Age</th><th scope="col">Due</th>
    </tr></thead>
    <tbody>
      ${tickets.map(
        (ticket) => html`<tr class=${ticket.overdue ? 'overdue' : ''}>${selection?.cell(ticket) ?? ''}
          <td><a href=${link('/discrepancies', ticket.id)}>${ticket.summary}</a></td>
          <td>${humanize(ticket.kind)}</td>
          <td><span class="status status-${ticket.status}">${humanize(ticket.status)}</span></td>
          <td>${ticket.owner}</td>
          <td class="number">${formatMinor(ticket.amount, ticket.currency)}</td>
          <td>${formatAge(ticket.ageHours)}</td>
          <td>${formatInstant(ticket.dueAt)}${ticket.overdue ? OVERDUE_BADGE : ''}</td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}

export const queuePage: Page = async (context) => {
  const filters = readFilters(context.route.query);
  let counts: TicketCounts | Error | undefined;
  let section: TemplateResult = html``;
  const bulk = canWork(context.principal) ? queueBulk(() => draw(), context.reload) : undefined;
  const draw = () =>
    context.render(html`<h1 tabindex="-1">Discrepancy queue</h1>
      ${countsBar(counts)}
      ${filterForm(filters, (next) => context.navigate(link('/discrepancies', undefined, next)))}
      ${bulk?.bar() ?? ''}
      <section aria-label="Tickets">${section}</section>`);
  draw();
  void api
    .get<TicketCounts>(apiPath`/v1/discrepancies/counts`)
    .then(
      (answer) => (counts = answer),
      (error: Error) => (counts = error),
    )
    .then(draw);
  await pagedSection<Ticket>({
    what: 'tickets',
    load: (cursor) =>
      api.get<ListPage<Ticket>>(apiPath`/v1/discrepancies`, {
        ...apiQuery(filters),
        cursor,
        limit: String(QUEUE_PAGE_SIZE),
      }),
    rows: (tickets) => ticketRows(tickets, bulk),
    empty: await queueEmptyState(Object.keys(filters).length > 0),
    update: (next) => {
      section = next;
      draw();
    },
  });
};
