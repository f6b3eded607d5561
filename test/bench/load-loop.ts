import { performance } from 'node:perf_hooks';

/** What one request achieved: a single transfer, or a batch of them. */
export interface AttemptOutcome {
  transfersCreated: number;
  /** Transfers the request did not create, by label (HTTP status and error code, or SQLSTATE). */
  failures?: Readonly<Record<string, number>>;
}

export type Attempt = (workerIndex: number, sequence: number) => Promise<AttemptOutcome>;

/** The outcome of a one-transfer request: undefined when it succeeded, else what went wrong. */
export function singleOutcome(failure: string | undefined): AttemptOutcome {
  return failure === undefined ? { transfersCreated: 1 } : { transfersCreated: 0, failures: { [failure]: 1 } };
}

export interface LoadOptions {
  concurrency: number;
  requests: number;
  /** Transfers per request: a request that throws counts as that many failed transfers. */
  transfersPerRequest: number;
  /** No new request starts after this; the run reports itself as timed out. */
  timeoutMs: number;
  attempt: Attempt;
  /** Called right before the first and right after the last request (CPU and activity accounting). */
  hooks?: LoadHooks;
}

export interface LoadHooks {
  onLoadStart(): void;
  onLoadEnd(): void;
}

export interface LoadResult {
  requestsAttempted: number;
  transfersCreated: number;
  elapsedMs: number;
  timedOut: boolean;
  /** Latency of each request that created at least one transfer, in completion order. */
  latenciesMs: Float64Array;
  /** Failed transfers by label. */
  errors: Record<string, number>;
}

const ERROR_LABEL_LENGTH_MAX = 120;

/**
 * A closed loop: `concurrency` workers each start their next request as soon as the previous one
 * answers, until `requests` have been started. Throughput is then what the system sustains at that
 * many requests in flight, and the latency is not inflated by a queue inside the load generator.
 */
export async function runClosedLoop(options: LoadOptions): Promise<LoadResult> {
  const latenciesMs = new Float64Array(options.requests);
  const errors: Record<string, number> = {};
  let started = 0;
  let answered = 0;
  let transfersCreated = 0;
  let timedOut = false;
  options.hooks?.onLoadStart();
  const startedAtMs = performance.now();
  const deadlineMs = startedAtMs + options.timeoutMs;

  const countErrors = (failures: Readonly<Record<string, number>>) => {
    for (const [label, count] of Object.entries(failures)) {
      const key = label.slice(0, ERROR_LABEL_LENGTH_MAX);
      errors[key] = (errors[key] ?? 0) + count;
    }
  };

  const worker = async (workerIndex: number) => {
    // Bounded by the shared counter: at most `requests` iterations over all workers together.
    while (started < options.requests) {
      if (performance.now() > deadlineMs) {
        timedOut = true;
        return;
      }
      const sequence = started++;
      const beganMs = performance.now();
      let outcome: AttemptOutcome;
      try {
        outcome = await options.attempt(workerIndex, sequence);
      } catch (error) {
        const label = `exception: ${error instanceof Error ? error.message : String(error)}`;
        outcome = { transfersCreated: 0, failures: { [label]: options.transfersPerRequest } };
      }
      if (outcome.transfersCreated > 0) latenciesMs[answered++] = performance.now() - beganMs;
      transfersCreated += outcome.transfersCreated;
      if (outcome.failures !== undefined) countErrors(outcome.failures);
    }
  };

  await Promise.all(Array.from({ length: options.concurrency }, (_, index) => worker(index)));
  const elapsedMs = performance.now() - startedAtMs;
  options.hooks?.onLoadEnd();
  return {
    requestsAttempted: started,
    transfersCreated,
    elapsedMs,
    timedOut,
    latenciesMs: latenciesMs.subarray(0, answered),
    errors,
  };
}

/** Runs `work` over `items` with at most `concurrency` in flight (setup: accounts, funding). */
export async function forEachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
