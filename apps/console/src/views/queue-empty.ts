import { apiPath } from '../api-path';
import { html, type TemplateResult } from 'lit-html';
import { type ListPage, api } from '../api-client';
import type { Run } from '../api-types';
import { link } from '../router';
import { empty } from './states';

/**
 * What an empty queue means: with filters, that none match; without, whether reconciliation ever ran
 * (an empty queue before the first run says nothing about the books).
 */
export async function queueEmptyState(filtered: boolean): Promise<TemplateResult> {
  if (filtered) return empty('No tickets match these filters.');
  let runs: Run[] | undefined;
  try {
    runs = (await api.get<ListPage<Run>>(apiPath`/v1/reconciliation/runs`, { limit: '1' })).data;
  } catch {
    runs = undefined;
  }
  if (runs === undefined) return empty('No discrepancy tickets.');
  if (runs.length === 0)
    return empty(
      'No discrepancy tickets: no reconciliation run yet. Import a statement, then start a run.',
      html`<a href=${link('/runs')}>Reconciliation runs</a>`,
    );
  return empty('No discrepancy tickets: every run so far found the books and statements in agreement.');
}
