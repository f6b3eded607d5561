import type { ApiFixture } from './bench-setup';
import { HttpClient, errorLabel } from './http-client';
import { type LoadHooks, type LoadResult, runClosedLoop } from './load-loop';
import { CURRENCY, type WorkloadName, idempotencyKeyPrefix, nextTransfer } from './workloads';

export interface HttpLoadOptions {
  baseUrl: string;
  fixture: ApiFixture;
  workload: WorkloadName;
  concurrency: number;
  transfers: number;
  timeoutMs: number;
  hooks?: LoadHooks;
}

/** Two-leg transfers through POST /v1/transactions, each with a fresh Idempotency-Key. */
export async function runHttpLoad(options: HttpLoadOptions): Promise<LoadResult> {
  const http = new HttpClient(options.baseUrl, options.concurrency);
  const keyPrefix = idempotencyKeyPrefix(`${options.workload}-${options.concurrency}`);
  try {
    return await runClosedLoop({
      concurrency: options.concurrency,
      transfers: options.transfers,
      timeoutMs: options.timeoutMs,
      hooks: options.hooks,
      attempt: async (_workerIndex, sequence) => {
        const transfer = nextTransfer(options.workload, options.fixture);
        const amount = transfer.amountMinor.toString();
        const answer = await http.request({
          method: 'POST',
          path: '/v1/transactions',
          bearer: options.fixture.posterKey,
          idempotencyKey: `${keyPrefix}-${sequence}`,
          body: {
            entries: [
              { account: transfer.debitAccountId, direction: 'debit', amount, currency: CURRENCY },
              { account: transfer.creditAccountId, direction: 'credit', amount, currency: CURRENCY },
            ],
          },
        });
        return answer.status === 201 ? undefined : errorLabel(answer);
      },
    });
  } finally {
    http.close();
  }
}
