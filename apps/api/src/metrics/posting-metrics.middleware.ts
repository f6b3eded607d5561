import type { NextFunction, Request, Response } from 'express';
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
  return (request: Request, response: Response, next: NextFunction): void => {
    if (request.method !== 'POST') return next();
    const operation = operationOf(request.path);
    const stop = metrics.postingSeconds.startTimer({ operation });
    response.once('finish', () => {
      stop();
      metrics.postings.inc({ operation, status: `${Math.floor(response.statusCode / 100)}xx` });
    });
    next();
  };
}
