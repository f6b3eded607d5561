import { apiPath } from '../api-path';
import { html, type TemplateResult } from 'lit-html';
import { ApiError, type ListPage, api } from '../api-client';
import type { Run } from '../api-types';
import { lineChart } from '../charts/line-chart';
import { formatInstant } from '../format';
import { type Page, canWork } from '../page';
import { matchedTotal, statOf } from '../run-stats';
import { pagedSection } from './paged-section';
import { followRun, isUnderWay, runOutcome, runProgress } from './run-follow';
import { empty, explainError, notice } from './states';

export const RUNS_PAGE_SIZE = 50;

function chart(all: Run[]): TemplateResult {
  // A run queued, running or failed has no counts to chart.
  const runs = all.filter((run) => run.status === 'completed');
  if (runs.length === 0) return html``;
  const at = (run: Run) => Date.parse(run.startedAt ?? run.queuedAt);
  const series = (name: string, value: (run: Run) => number) => ({
    name,
    points: runs.map((run) => ({ at: at(run), value: value(run) })),
  });
  return lineChart({
    title: 'Runs on this page over time: findings, tickets opened and resolved, lines matched',
    series: [
      series('findings', (run) => statOf(run, 'findings')),
      series('opened', (run) => statOf(run, 'opened') + statOf(run, 'reopened')),
      series('resolved', (run) => statOf(run, 'resolved')),
      series('matched', matchedTotal),
    ],
    formatValue: (value) => String(Math.round(value)),
  });
}

function runRows(runs: Run[]): TemplateResult {
  return html`<table class="compact">
    <caption class="visually-hidden">Reconciliation runs, newest first</caption>
    <thead><tr>
      <th scope="col">Started</th><th scope="col">Trigger</th><th scope="col">Status</th>
      <th scope="col" class="number">Findings</th><th scope="col" class="number">Opened</th>
      <th scope="col" class="number">Resolved</th><th scope="col" class="number">Matched</th>
      <th scope="col" class="number">Duration</th>
    </tr></thead>
    <tbody>
      ${runs.map(
        (run) => html`<tr><td>${run.startedAt === null ? '—' : formatInstant(run.startedAt)}</td>
          <td>${run.trigger} <span class="muted by">by ${run.actor}</span></td>
          <td>${run.status}${run.error ? `: ${run.error}` : ''}</td>
          <td class="number">${statOf(run, 'findings')}</td>
          <td class="number">${statOf(run, 'opened') + statOf(run, 'reopened')}</td>
          <td class="number">${statOf(run, 'resolved')}</td><td class="number">${matchedTotal(run)}</td>
          <td class="number">${run.durationMs === null ? '—' : `${run.durationMs} ms`}</td></tr>`,
      )}
    </tbody>
  </table>`;
}

export const runsPage: Page = async (context) => {
  let section: TemplateResult = html``;
  let runs: Run[] = [];
  let outcome = notice(undefined);
  let following: string | undefined;
  /** Follows a queued or running run until it finishes, showing where it is, and the list as it changes. */
  const follow = async (id: string, note?: string) => {
    following = id;
    draw();
    let status: Run['status'] | undefined;
    try {
      const finished = await followRun(id, {
        active: context.active,
        update: (run) => {
          outcome = html`${note ? notice(note) : ''}${isUnderWay(run) ? runProgress(run) : runOutcome(run)}`;
          if (run.status !== status) void showRuns();
          status = run.status;
          draw();
        },
      });
      if (finished === undefined && context.active()) outcome = notice('The run is still going: reload to follow it.');
    } catch (error) {
      outcome = notice(explainError(error), 'error');
    }
    following = undefined;
    draw();
  };
  const start = async () => {
    following = 'starting';
    draw();
    try {
      const run = await api.post<Run>(apiPath`/v1/reconciliation/runs`, {});
      await follow(run.id);
    } catch (error) {
      const inTheWay = error instanceof ApiError ? error.details.runId : undefined;
      if (typeof inTheWay === 'string')
        return follow(inTheWay, 'A run of this tenant was already going: following it.');
      outcome = notice(explainError(error), 'error');
      following = undefined;
      draw();
    }
  };
  const runButton = () => html`<p><button type="button" ?disabled=${following !== undefined} @click=${start}>
    ${following === undefined ? 'Run reconciliation now' : 'Running…'}</button></p>`;
  const draw = () =>
    context.render(html`<h1 tabindex="-1">Reconciliation runs</h1>
      ${canWork(context.principal) ? runButton() : ''}
      ${outcome}
      ${chart(runs)}
      ${section}`);
  const showRuns = () =>
    pagedSection<Run>({
      what: 'runs',
      load: (cursor) =>
        api.get<ListPage<Run>>(apiPath`/v1/reconciliation/runs`, { cursor, limit: String(RUNS_PAGE_SIZE) }),
      rows: runRows,
      empty: empty('No reconciliation run yet. The worker runs one on its schedule, or start one here.'),
      loaded: (items) => (runs = items),
      update: (next) => {
        section = next;
        draw();
      },
    });
  await showRuns();
  // A run already under way when the page opens (started here before, by someone else, or the schedule).
  const newest = runs[0];
  if (newest !== undefined && isUnderWay(newest) && following === undefined) void follow(newest.id);
};
