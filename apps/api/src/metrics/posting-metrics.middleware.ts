import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LedgerMetrics } from './ledger-metrics';

/** `POST /v1/transactions` is a posting; `/batch`, `/:id/post`, `/:id/void`, `/:id/reverse` name theirs. */
function operationOf(path: string): string {
  const last = path.split('/').filter(Boolean).at(-1);
  return last === undefined
    ? 'post'
    : last === 'batch' || last === 'post' || last === 'void' || last === 'reverse'
      ? last
      : 'other';
}

/** Mounted on /v1/transactions: counts and times every posting request by the status it was answered with. */
export function postingMetrics(metrics: LedgerMetrics) {
  return (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
    if (request.method !== 'POST') return next();
    // The path below the mount point, without the query.
    const operation = operationOf((request.url ?? '/').split('?')[0]!);
    const stop = metrics.postingSeconds.startTimer({ operation });
    response.once('finish', () => {
      stop();
      metrics.postings.inc({ operation, status: `${Math.floor(response.statusCode / 100)}xx` });
    });
    next();
  };
}
