import { DomainError } from '@ledger/errors';

/** How far back a posting may be dated, and how much clock skew into the future is tolerated. */
export const BACKDATE_WINDOW_MS = 30 * 24 * 3600 * 1000;
export const FUTURE_SKEW_MAX_MS = 5 * 60 * 1000;

export function assertEffectiveAtInWindow(effectiveAt: Date, now: Date): void {
  const earliest = now.getTime() - BACKDATE_WINDOW_MS;
  const latest = now.getTime() + FUTURE_SKEW_MAX_MS;
  if (effectiveAt.getTime() < earliest || effectiveAt.getTime() > latest) {
    throw new DomainError('VALIDATION_FAILED', 'effectiveAt is outside the allowed window', {
      fields: [
        {
          path: 'effectiveAt',
          message: `must be between ${new Date(earliest).toISOString()} and ${new Date(latest).toISOString()}`,
        },
      ],
    });
  }
}
