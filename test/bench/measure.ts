// Wall time, CPU time and peak resident memory of this process while one piece of work runs (the
// import and reconcile suites run the ledger's use cases in this process).

const MEMORY_SAMPLE_MS = 50;

export interface Measured<T> {
  result: T;
  seconds: number;
  /** CPU seconds of this process (Node's share: parsing, hashing; PostgreSQL's is not in it). */
  cpuSeconds: number;
  peakRssMiB: number;
  /** Peak RSS over the RSS right before the work (after a GC when node runs with --expose-gc). */
  rssGrowthMiB: number;
}

const mebibytes = (bytes: number) => Math.round(bytes / 1024 / 1024);

export async function measure<T>(work: () => Promise<T>): Promise<Measured<T>> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), MEMORY_SAMPLE_MS);
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  try {
    const result = await work();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const used = process.cpuUsage(cpu);
    peak = Math.max(peak, process.memoryUsage().rss);
    return {
      result,
      seconds,
      cpuSeconds: (used.user + used.system) / 1e6,
      peakRssMiB: mebibytes(peak),
      rssGrowthMiB: mebibytes(peak - before),
    };
  } finally {
    clearInterval(sampler);
  }
}
