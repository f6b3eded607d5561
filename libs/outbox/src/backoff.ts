/**
 * Exponential backoff with full jitter: a random wait up to base * 2^(attempt-1), capped, so that
 * many clients retrying after one outage spread out instead of arriving together.
 */
export function backoffDelayMs(
  attempt: number,
  baseMs: number,
  capMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}
