import type { ApiFixture } from './bench-setup';
import { type HttpAnswer, HttpClient, errorLabel } from './http-client';
import { type AttemptOutcome, type LoadHooks, type LoadResult, runClosedLoop, singleOutcome } from './load-loop';
import {
  CURRENCY,
  TRANSFERS_PER_REQUEST,
  type Transfer,
  type WorkloadName,
  idempotencyKeyPrefix,
  nextTransfer,
} from './workloads';

export interface HttpLoadOptions {
  baseUrl: string;
  fixture: ApiFixture;
  workload: WorkloadName;
  concurrency: number;
  /** Transfers per run; batch workloads send them in requests of their batch size. */
  transfers: number;
  timeoutMs: number;
  hooks?: LoadHooks;
}

interface BatchItemResult {
  status: 'created' | 'exists' | 'error';
  error?: { code?: string };
}

/** The body of POST /v1/transactions, also one item of a batch. */
export function transferBody(transfer: Transfer) {
  const amount = transfer.amountMinor.toString();
  return {
    entries: [
      { account: transfer.debitAccountId, direction: 'debit', amount, currency: CURRENCY },
      { account: transfer.creditAccountId, direction: 'credit', amount, currency: CURRENCY },
    ],
  };
}

/** Created items are transfers; refused items are errors by code; a refused request fails all of its items. */
function batchOutcome(answer: HttpAnswer, batchSize: number): AttemptOutcome {
  if (answer.status !== 201)
    return { transfersCreated: 0, failures: { [`${errorLabel(answer)} (whole batch)`]: batchSize } };
  const { results } = JSON.parse(answer.body) as { results: BatchItemResult[] };
  const failures: Record<string, number> = {};
  let transfersCreated = 0;
  for (const result of results) {
    if (result.status === 'created') transfersCreated++;
    else {
      // 'exists' cannot happen (no externalRef), but would mean a transfer not created by this request.
      const label = result.status === 'error' ? `item ${result.error?.code ?? 'unknown'}` : `item ${result.status}`;
      failures[label] = (failures[label] ?? 0) + 1;
    }
  }
  if (results.length !== batchSize) failures['results missing'] = batchSize - results.length;
  return { transfersCreated, failures };
}

/**
 * Two-leg transfers through POST /v1/transactions, or batches of them through
 * POST /v1/transactions/batch, each request with a fresh Idempotency-Key.
 */
export async function runHttpLoad(options: HttpLoadOptions): Promise<LoadResult> {
  const http = new HttpClient(options.baseUrl, options.concurrency);
  const keyPrefix = idempotencyKeyPrefix(`${options.workload}-${options.concurrency}`);
  const batchSize = TRANSFERS_PER_REQUEST[options.workload];
  const bearer = options.fixture.posterKey;
  const attempt = async (_workerIndex: number, sequence: number): Promise<AttemptOutcome> => {
    const idempotencyKey = `${keyPrefix}-${sequence}`;
    if (batchSize === 1) {
      const body = transferBody(nextTransfer(options.workload, options.fixture));
      const answer = await http.request({ method: 'POST', path: '/v1/transactions', bearer, idempotencyKey, body });
      return singleOutcome(answer.status === 201 ? undefined : errorLabel(answer));
    }
    const transactions = Array.from({ length: batchSize }, () =>
      transferBody(nextTransfer(options.workload, options.fixture)),
    );
    const answer = await http.request({
      method: 'POST',
      path: '/v1/transactions/batch',
      bearer,
      idempotencyKey,
      body: { transactions },
    });
    return batchOutcome(answer, batchSize);
  };
  try {
    return await runClosedLoop({
      concurrency: options.concurrency,
      requests: Math.ceil(options.transfers / batchSize),
      transfersPerRequest: batchSize,
      timeoutMs: options.timeoutMs,
      hooks: options.hooks,
      attempt,
    });
  } finally {
    http.close();
  }
}
