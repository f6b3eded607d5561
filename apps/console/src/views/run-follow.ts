import { html, type TemplateResult } from 'lit-html';
import { apiPath } from '../api-path';
import { api } from '../api-client';
import type { Run } from '../api-types';
import { link } from '../router';
import { statOf } from '../run-stats';

/** How often a queued or running run is read again, and for how long at most (then the person reloads). */
export const RUN_POLL_INTERVAL_MS = 1_000;
export const RUN_POLLS_MAX = 3_600;

export function isUnderWay(run: Run): boolean {
  return run.status === 'queued' || run.status === 'running';
}

const PHASES: Record<Run['progress']['phase'], string> = {
  queued: 'waiting for the worker',
  checks: "checking the ledger's invariants",
  matching: 'matching statement lines',
  tickets: 'bringing the tickets up to date',
  finished: 'finished',
};

/** Where a queued or running run is, in a sentence. */
export function runProgress(run: Run): TemplateResult {
  const { phase, sourcesDone, sourcesTotal, linesMatched } = run.progress;
  const sources = sourcesTotal === null ? '' : `; ${sourcesDone} of ${sourcesTotal} source(s) done`;
  const lines = phase === 'matching' || phase === 'tickets' ? `, ${linesMatched} line(s) matched` : '';
  return html`<p class="notice" role="status">Run ${run.status}: ${PHASES[phase]}${sources}${lines}…</p>`;
}

/** What a finished run did, or why it failed. */
export function runOutcome(run: Run): TemplateResult {
  if (run.status === 'failed') {
    return html`<p class="notice error" role="alert">Run failed while ${PHASES[run.progress.phase]}:
      ${run.error ?? 'no reason recorded'}</p>`;
  }
  return html`<p class="notice ok" role="status">Run finished: ${statOf(run, 'findings')} finding(s),
    ${statOf(run, 'opened')} ticket(s) opened, ${statOf(run, 'resolved')} resolved.
    <a href=${link('/discrepancies')}>See the queue</a></p>`;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads the run again every second until it is finished, telling `update` each state read; stops early
 * (undefined) once `active()` says the person left the page, or after `RUN_POLLS_MAX` reads.
 */
export async function followRun(
  id: string,
  options: { active: () => boolean; update: (run: Run) => void },
): Promise<Run | undefined> {
  for (let poll = 0; poll < RUN_POLLS_MAX; poll++) {
    if (!options.active()) return undefined;
    const run = await api.get<Run>(apiPath`/v1/reconciliation/runs/${id}`);
    options.update(run);
    if (!isUnderWay(run)) return run;
    await pause(RUN_POLL_INTERVAL_MS);
  }
  return undefined;
}
