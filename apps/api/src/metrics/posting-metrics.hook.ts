import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LedgerMetrics } from './ledger-metrics';

/** Where the posting routes are: `POST /v1/transactions` and the routes below it. */
const POSTINGS_PATH = '/v1/transactions';

/**
 * The posting a POST to `path` (without its query) is: `post` for `/v1/transactions`; `batch`, `post`,
 * `void` or `reverse` for the routes below it that end so; `other` for any other path below it;
 * undefined outside it.
 */
export function postingOperation(path: string): string | undefined {
  if (path !== POSTINGS_PATH && !path.startsWith(`${POSTINGS_PATH}/`)) return undefined;
  const last = path.slice(POSTINGS_PATH.length).split('/').filter(Boolean).at(-1);
  return last === undefined
    ? 'post'
    : last === 'batch' || last === 'post' || last === 'void' || last === 'reverse'
      ? last
      : 'other';
}

/** An `onRequest` hook: counts and times every posting request by the status it was answered with. */
export function postingMetrics(metrics: LedgerMetrics) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const operation = request.method === 'POST' ? postingOperation(request.url.split('?')[0]!) : undefined;
    if (operation === undefined) return done();
    const stop = metrics.postingSeconds.startTimer({ operation });
    reply.raw.once('finish', () => {
      stop();
      metrics.postings.inc({ operation, status: `${Math.floor(reply.raw.statusCode / 100)}xx` });
    });
    done();
  };
}
