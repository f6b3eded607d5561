import { performance } from 'node:perf_hooks';

/** One transfer attempt: undefined when it succeeded, else a short label of what went wrong. */
export type TransferAttempt = (workerIndex: number, sequence: number) => Promise<string | undefined>;

export interface LoadOptions {
  concurrency: number;
  transfers: number;
  /** No new transfer starts after this; the run reports itself as timed out. */
  timeoutMs: number;
  attempt: TransferAttempt;
  /** Called right before the first and right after the last transfer (CPU and activity accounting). */
  hooks?: LoadHooks;
}

export interface LoadHooks {
  onLoadStart(): void;
  onLoadEnd(): void;
}

export interface LoadResult {
  attempted: number;
  succeeded: number;
  elapsedMs: number;
  timedOut: boolean;
  /** Latency of each successful transfer, in completion order. */
  latenciesMs: Float64Array;
  /** Failures by label (HTTP status and error code, or SQLSTATE). */
  errors: Record<string, number>;
}

const ERROR_LABEL_LENGTH_MAX = 120;

/**
 * A closed loop: `concurrency` workers each start their next transfer as soon as the previous one
 * answers, until `transfers` have been started. Throughput is then what the system sustains at that
 * many requests in flight, and the latency is not inflated by a queue inside the load generator.
 */
export async function runClosedLoop(options: LoadOptions): Promise<LoadResult> {
  const latenciesMs = new Float64Array(options.transfers);
  const errors: Record<string, number> = {};
  let started = 0;
  let succeeded = 0;
  let timedOut = false;
  options.hooks?.onLoadStart();
  const startedAtMs = performance.now();
  const deadlineMs = startedAtMs + options.timeoutMs;

  const countError = (label: string) => {
    const key = label.slice(0, ERROR_LABEL_LENGTH_MAX);
    errors[key] = (errors[key] ?? 0) + 1;
  };

  const worker = async (workerIndex: number) => {
    // Bounded by the shared counter: at most `transfers` iterations over all workers together.
    while (started < options.transfers) {
      if (performance.now() > deadlineMs) {
        timedOut = true;
        return;
      }
      const sequence = started++;
      const beganMs = performance.now();
      let failure: string | undefined;
      try {
        failure = await options.attempt(workerIndex, sequence);
      } catch (error) {
        failure = `exception: ${error instanceof Error ? error.message : String(error)}`;
      }
      if (failure === undefined) latenciesMs[succeeded++] = performance.now() - beganMs;
      else countError(failure);
    }
  };

  await Promise.all(Array.from({ length: options.concurrency }, (_, index) => worker(index)));
  const elapsedMs = performance.now() - startedAtMs;
  options.hooks?.onLoadEnd();
  return {
    attempted: started,
    succeeded,
    elapsedMs,
    timedOut,
    latenciesMs: latenciesMs.subarray(0, succeeded),
    errors,
  };
}

/** Runs `work` over `items` with at most `concurrency` in flight (setup: accounts, funding). */
export async function forEachConcurrently<T>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
