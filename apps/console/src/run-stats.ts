import type { Run } from './api-types';

// A run's stats as the reconciler records them: {findings, opened, reopened, resolved, updated,
// matched: {reference, group, amountDate, reversal}, checks: {...}}. Read defensively: an older run
// may lack a field.

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Lines matched by any rule in the run. */
export function matchedTotal(run: Run): number {
  const matched = run.stats.matched;
  return matched && typeof matched === 'object'
    ? Object.values(matched).reduce<number>((sum, value) => sum + count(value), 0)
    : 0;
}

export function statOf(run: Run, name: 'findings' | 'opened' | 'resolved' | 'reopened'): number {
  return count(run.stats[name]);
}
